/**
 * HTML-escaped operators: a model that has seen its commands as HTML writes
 * `cd /repo &amp;&amp; pytest` or `pytest 2&gt;&amp;1` where it means `&&` and
 * `2>&1`. Unquoted, such an entity is never what anyone meant: the shell reads
 * `&amp;` as a background `&` and a command `amp`, and `;&` after it is a
 * syntax error. The command the model asked for is the one with the operator
 * it spelled. Only `&amp;`, `&lt;` and `&gt;` outside quotes are read back;
 * inside quotes the entity is text a program receives (`grep '&amp;' page.html`)
 * and stays.
 */

const ENTITIES: ReadonlyMap<string, string> = new Map([
  ['&amp;', '&'],
  ['&lt;', '<'],
  ['&gt;', '>'],
]);

/** Whether the command holds an entity at all: the common command pays one scan for `&`. */
export function hasEntity(command: string): boolean {
  return command.includes('&amp;') || command.includes('&lt;') || command.includes('&gt;');
}

/** The entity that starts at `at`, if any. */
function entityAt(command: string, at: number): string | undefined {
  for (const entity of ENTITIES.keys()) if (command.startsWith(entity, at)) return entity;
  return undefined;
}

/**
 * The POSIX command with its unquoted entities read back as the operators they
 * spell; the command itself when it has none, or when it holds `$'…'` (its
 * escapes are not followed here). Linear in the command.
 */
export function unescapeOperators(command: string): string {
  if (!hasEntity(command) || command.includes("$'")) return command;
  let out = '';
  let quote: "'" | '"' | null = null;
  let from = 0;
  for (let at = 0; at < command.length; at += 1) {
    const c = command[at];
    if (quote === "'") {
      if (c === "'") quote = null;
    } else if (c === '\\') at += 1;
    else if (quote === '"') {
      if (c === '"') quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '&') {
      const entity = entityAt(command, at);
      if (entity === undefined) continue;
      out += command.slice(from, at) + (ENTITIES.get(entity) as string);
      at += entity.length - 1;
      from = at + 1;
    }
  }
  return from === 0 ? command : out + command.slice(from);
}
