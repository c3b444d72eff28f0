/**
 * The facts of one recorded exchange read from its (redacted) messages: the tool, resource or
 * prompt it names, its progress token and task, whether the result is a tool error. The Activity
 * view and the Inspector both show them, so they live with the traffic model.
 */

import type { ActivityEntry } from './activityEntry';
import { redactText, redactValue } from '../../shared/common/redact';

/** What a view needs from the messages, read once per exchange (reading redacts: not per refresh). */
export interface ExchangeFacts {
  name?: string;
  /** `params._meta.progressToken` of a request, `params.progressToken` of a progress notification. */
  progressToken?: string | number;
  /** The response is a result with `isError: true`. */
  isError?: boolean;
  /** The first text content of an `isError` result, for the row's status text. */
  errorText?: string;
  /** The task a request created (`result.task.taskId`), or the task a tasks/* request or task notification is about. */
  taskId?: string;
  /** A log or progress notification's message, one line: `warning: disk almost full`, `3/10 Indexing…`. */
  note?: string;
}

/** A note is one line of a list: longer messages are cut (the detail shows them whole). */
const MAX_NOTE = 200;

/**
 * The line a list shows for a notifications/message (`level: data`) or notifications/progress
 * (`progress/total message`). `secrets`: the params are the message as it came, unredacted (the
 * log reads the note once, when it records the notification), so what is shown is redacted here.
 */
export function noteOf(method: string, params: Record<string, unknown>, secrets?: readonly string[]): string | undefined {
  const text = (value: string) => (secrets ? redactText(value, secrets) : value);
  let note: string | undefined;
  if (method === 'notifications/message') {
    const data = params.data;
    const shown = typeof data === 'string' ? text(data) : data === undefined ? '' : (JSON.stringify(secrets ? redactValue(data, secrets) : data) ?? '');
    note = `${typeof params.level === 'string' ? `${text(params.level)}: ` : ''}${shown}`;
  } else if (method === 'notifications/progress' && typeof params.progress === 'number') {
    const total = typeof params.total === 'number' ? `/${params.total}` : '';
    note = `${params.progress}${total}${typeof params.message === 'string' ? ` ${text(params.message)}` : ''}`;
  }
  return note === undefined ? undefined : oneLineNote(note);
}

/** A note as a list shows it: one line (a multi-line text would be cut at its first break by the row's height), MAX_NOTE at most. */
export function oneLineNote(text: string): string {
  return text.replace(/\s+/g, ' ').slice(0, MAX_NOTE);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads the facts of an exchange from its (redacted) messages. */
export function factsOf(record: Pick<ActivityEntry, 'kind' | 'method' | 'request' | 'response'>): ExchangeFacts {
  const params = isRecord(record.request) && isRecord(record.request.params) ? record.request.params : undefined;
  const facts: ExchangeFacts = {};
  if (params) {
    if (typeof params.name === 'string') facts.name = params.name;
    else if (typeof params.uri === 'string') facts.name = params.uri;
    else if (isRecord(params.ref) && typeof (params.ref.name ?? params.ref.uri) === 'string') facts.name = String(params.ref.name ?? params.ref.uri);
    const token = record.kind === 'notification' ? params.progressToken : isRecord(params._meta) ? params._meta.progressToken : undefined;
    if (typeof token === 'string' || typeof token === 'number') facts.progressToken = token;
    if (record.kind === 'notification') {
      const note = noteOf(record.method, params);
      if (note) facts.note = note;
    }
  }
  if (params && typeof params.taskId === 'string' && (record.method.startsWith('tasks/') || record.method.startsWith('notifications/tasks/')))
    facts.taskId = params.taskId;
  const result = isRecord(record.response) && isRecord(record.response.result) ? record.response.result : undefined;
  if (result && isRecord(result.task) && typeof result.task.taskId === 'string' && !record.method.startsWith('tasks/')) facts.taskId = result.task.taskId;
  if (result?.isError === true) {
    facts.isError = true;
    const first = Array.isArray(result.content)
      ? (result.content.find((c) => isRecord(c) && c.type === 'text' && typeof c.text === 'string') as { text: string } | undefined)
      : undefined;
    if (first) facts.errorText = first.text.slice(0, 200);
  }
  return facts;
}
