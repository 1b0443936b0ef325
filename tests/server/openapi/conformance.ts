/**
 * Checks recorded API answers against the response schemas the OpenAPI document declares for
 * their route and status, with Ajv (draft-07 plus OpenAPI 3.0's `nullable`) on the document
 * with its references resolved.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv from 'ajv';
import type { RecordedResponse } from '../../../server/openapi/recorder';
import { operationAt, type OpenApiDocument, type Operation } from './document';

export interface Mismatch {
  answer: string;
  problem: string;
}

export interface Conformance {
  /** Answers checked against a declared schema. */
  checked: number;
  /** Answers of operations that declare no response schema yet (operationId and tags only). */
  undeclared: Set<string>;
  mismatches: Mismatch[];
}

/** Whether an operation declares its answers (a route with full schemas). */
function declaresResponses(operation: Operation): boolean {
  return Object.values(operation.responses).some((response) => response.content);
}

export async function checkAnswers(
  document: OpenApiDocument,
  answers: RecordedResponse[],
): Promise<Conformance> {
  const resolved = (await SwaggerParser.dereference(
    structuredClone(document) as never,
  )) as unknown as OpenApiDocument;
  const ajv = new Ajv({ nullable: true, allErrors: true, unknownFormats: 'ignore' });
  const compiled = new WeakMap<object, ReturnType<typeof ajv.compile>>();
  const result: Conformance = { checked: 0, undeclared: new Set(), mismatches: [] };
  for (const answer of answers) {
    const name = `${answer.method} ${answer.path} ${answer.status}`;
    const operation = operationAt(resolved, answer.method, answer.path);
    if (!operation) {
      result.mismatches.push({ answer: name, problem: 'no operation in the document' });
      continue;
    }
    if (!declaresResponses(operation)) {
      result.undeclared.add(operation.operationId ?? name);
      continue;
    }
    // Refusals a route does not list (413, 415, 500…) are its `default` answer.
    const response =
      operation.responses[String(answer.status)] ??
      (answer.status >= 400 ? operation.responses.default : undefined);
    if (!response) {
      result.mismatches.push({ answer: name, problem: 'status not declared' });
      continue;
    }
    const mediaType = answer.contentType?.split(';')[0] ?? 'application/json';
    const declared = response.content?.[mediaType];
    if (response.content && !declared && answer.body) {
      result.mismatches.push({ answer: name, problem: `sent as ${mediaType}, not declared` });
      continue;
    }
    const schema = declared?.schema;
    if (!schema || !answer.body || mediaType !== 'application/json') {
      // An answer without a body must be declared without one (204, 304).
      // A file sent as a stream is not recorded: a binary body may look like none.
      const streamed = Object.values(response.content ?? {}).some(
        (media) => (media.schema as { format?: string } | undefined)?.format === 'binary',
      );
      const bodiless = answer.status === 204 || answer.status === 304;
      if (!answer.body && response.content && !bodiless && !streamed) {
        result.mismatches.push({ answer: name, problem: 'a body was declared, none was sent' });
      }
      result.checked += 1;
      continue;
    }
    const validate = compiled.get(schema) ?? ajv.compile(schema);
    compiled.set(schema, validate);
    if (!validate(JSON.parse(answer.body))) {
      result.mismatches.push({ answer: name, problem: ajv.errorsText(validate.errors) });
    }
    result.checked += 1;
  }
  return result;
}
