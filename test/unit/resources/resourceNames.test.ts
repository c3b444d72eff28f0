import * as assert from 'node:assert/strict';
import { extensionForMime, isImageName, isTextMime, lastSegment, resourceFileName } from '../../../src/resources/common/resourceNames';

describe('resourceNames', () => {
  it('names a resource after its URI with an extension from the MIME type', () => {
    assert.equal(resourceFileName('fixture://static/hello', 'text/plain', false), 'hello.txt');
    assert.equal(resourceFileName('fixture://static/data.json', 'application/json', false), 'data.json');
    assert.equal(resourceFileName('fixture://static/pixel.png', 'image/png', true), 'pixel.png');
    assert.equal(resourceFileName('docs://guide', 'text/markdown; charset=utf-8', false), 'guide.md');
    assert.equal(resourceFileName('page://x/index', 'text/html', false), 'index.html');
    assert.equal(resourceFileName('fixture://items/item-1', 'text/plain', false), 'item-1.txt');
  });

  it("keeps the URI's own extension when the MIME type is generic or missing", () => {
    assert.equal(resourceFileName('file:///src/main.py', 'text/plain', false), 'main.py');
    assert.equal(resourceFileName('file:///src/main.rs', undefined, false), 'main.rs');
    assert.equal(resourceFileName('s3://bucket/archive.tar.gz', 'application/octet-stream', true), 'archive.tar.gz');
    assert.equal(resourceFileName('x://a/report.data', 'application/json', false), 'report.data.json');
  });

  it('falls back to .txt for text and .bin for unknown blobs', () => {
    assert.equal(resourceFileName('x://thing', undefined, false), 'thing.txt');
    assert.equal(resourceFileName('x://thing', 'application/x-weird', true), 'thing.bin');
    assert.equal(resourceFileName('x://', undefined, false), 'resource.txt');
  });

  it('decodes and sanitises the last segment, ignoring query and fragment', () => {
    assert.equal(lastSegment('x://a/b%20c?x=1#f'), 'b c');
    assert.equal(lastSegment('x://a/we:ird*name'), 'we_ird_name');
  });

  it('knows text and image types', () => {
    assert.equal(extensionForMime('application/vnd.api+json'), '.json');
    assert.equal(isTextMime('application/json'), true);
    assert.equal(isTextMime('text/csv'), true);
    assert.equal(isTextMime('image/png'), false);
    assert.equal(isImageName('pixel.png'), true);
    assert.equal(isImageName('data.json'), false);
  });
});
