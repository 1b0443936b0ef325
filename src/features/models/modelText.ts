/** The words of the model screens that the spec gives (spec 000 §5, §6, §8). */
import { errorMessage } from '@/api/errors';

/** The most a model name may hold (spec 000 §9). */
export const MODEL_NAME_MAX_LENGTH = 100;

export const MODEL_WRITE_REQUIRED = 'A contributor access level is required to edit a model';

export function listingModelsFailed(error: unknown): string {
  return `An error occurred listing models: ${errorMessage(error)}`;
}

export function retrievingModelFailed(id: string, error: unknown): string {
  return `An error occurred retrieving model ${id}: ${errorMessage(error)}`;
}

/** The name as it is sent: trimmed. */
export function cleanModelName(name: string): string {
  return name.trim();
}

/** Why a name cannot be sent yet, or null: create and update wait for a name (spec 000 §5). */
export function modelNameProblem(name: string): string | null {
  const clean = cleanModelName(name);
  if (!clean) return 'The model needs a name';
  if (clean.length > MODEL_NAME_MAX_LENGTH)
    return `A model name holds at most ${MODEL_NAME_MAX_LENGTH} characters`;
  return null;
}
