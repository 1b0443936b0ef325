/**
 * The settings schema as the author types it: JSON, checked with the rules the server applies
 * (schemaProblems), so each problem shows with its key before anything is sent.
 */
import { schemaProblems, type UserConfiguration } from '@/lib/workerConfiguration';

export type SchemaText =
  | { kind: 'empty' }
  | { kind: 'invalid'; problems: { key: string; message: string }[] }
  | { kind: 'valid'; schema: UserConfiguration };

export function readSchemaText(text: string): SchemaText {
  if (!text.trim()) return { kind: 'empty' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return {
      kind: 'invalid',
      problems: [{ key: '', message: `This is not valid JSON: ${(error as Error).message}` }],
    };
  }
  const problems = schemaProblems(parsed);
  return problems.length
    ? { kind: 'invalid', problems }
    : { kind: 'valid', schema: parsed as UserConfiguration };
}

/** A problem as the author reads it: the field's key first, when it has one. */
export function problemText(problem: { key: string; message: string }): string {
  return problem.key ? `${problem.key}: ${problem.message}` : problem.message;
}

/** The server's refusals of schema fields (attr configuration.user_configuration.<key>). */
export function serverSchemaProblems(
  errors: Record<string, string[]>,
): { key: string; message: string }[] {
  const prefix = 'configuration.user_configuration';
  return Object.entries(errors)
    .filter(
      ([attr]) => attr === prefix || attr.startsWith(`${prefix}.`) || attr === 'configuration',
    )
    .flatMap(([attr, messages]) =>
      messages.map((message) => ({
        key: attr.startsWith(`${prefix}.`) ? attr.slice(prefix.length + 1) : '',
        message,
      })),
    );
}
