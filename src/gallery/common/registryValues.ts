/**
 * How one registry value (an argument, an environment variable, a header, a URL variable)
 * becomes text in a config entry. Pure.
 *
 * The rules, from the `Input` schema: a fixed `value` is used as given, its `{name}` parts
 * filled from `variables`; a secret is always an `${input:…}` with `password: true`, never a
 * literal; a required value without a default is an `${input:…}` the user is asked for on the
 * first start; a default is used as the value; anything else is optional and left out (the
 * summary lists it, so the user can add it).
 */
import type { InputDefinition } from '../../config/common/serverConfig';
import type { RegistryInput } from './registryTypes';

/** What mapping one package or remote collects besides the entry itself. */
export class ValueCollector {
  readonly inputs: InputDefinition[] = [];
  /** Optional values left out: `NAME (description)`. */
  readonly optional: string[] = [];

  /** @param idPrefix what every input id starts with (the server's short name), so ids of different servers do not meet */
  constructor(private readonly idPrefix: string) {}

  /**
   * The text for one value, or undefined when it is optional and has no default.
   * @param key the input id's own part (variable or argument name)
   * @param label what the user reads when asked (falls back to the key)
   * @param required whether a value must be given even if the registry does not say so (URL variables, `{name}` in a value)
   */
  resolve(input: RegistryInput, key: string, label: string, options: { required?: boolean; secret?: boolean } = {}): string | undefined {
    const secret = options.secret === true || input.isSecret === true;
    if (input.value !== undefined) {
      const filled = this.fill(input.value, input.variables, secret);
      // A fixed secret without variables is asked for, with the published value as the default.
      if (secret && filled === input.value && !/\{[A-Za-z_][A-Za-z0-9_]*\}/.test(input.value)) return this.ask(input, key, label, true, input.value);
      return filled;
    }
    if (secret) return this.ask(input, key, label, true, input.default);
    if (input.default !== undefined) return input.default;
    if (input.isRequired || options.required) return this.ask(input, key, label, false, undefined);
    this.optional.push(input.description ? `${label} (${input.description})` : label);
    return undefined;
  }

  /** `{name}` in a template, each replaced with the resolved variable; unknown names stay as they are (the schema says so). */
  fill(template: string, variables: Record<string, RegistryInput> | undefined, secret: boolean): string {
    return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
      const variable = variables?.[name];
      if (!variable) return whole;
      return this.resolve(variable, name, name, { required: true, secret }) ?? whole;
    });
  }

  private ask(input: RegistryInput, key: string, label: string, password: boolean, defaultValue: string | undefined): string {
    const base = `${this.idPrefix}-${key}`.replace(/[^A-Za-z0-9_.-]+/g, '-');
    const description = [input.description ?? label, input.placeholder ? `e.g. ${input.placeholder}` : undefined].filter(Boolean).join(' — ');
    const definition: InputDefinition = {
      id: base,
      type: input.choices?.length ? 'pickString' : 'promptString',
      description,
      ...(defaultValue !== undefined ? { default: defaultValue } : {}),
      ...(password ? { password: true } : {}),
      ...(input.choices?.length ? { options: input.choices } : {}),
    };
    // The same value asked for twice (a variable used in two arguments) is one input.
    const same = this.inputs.find((i) => JSON.stringify({ ...i, id: base }) === JSON.stringify(definition));
    if (same) return `\${input:${same.id}}`;
    let id = base;
    for (let n = 2; this.inputs.some((i) => i.id === id); n++) id = `${base}-${n}`;
    this.inputs.push({ ...definition, id });
    return `\${input:${id}}`;
  }
}

/** Whether any text of a registry value would be read as a `${…}` variable of the config (one that reads the machine). */
export function hasConfigVariableSyntax(value: unknown): boolean {
  return JSON.stringify(value ?? null).includes('${');
}
