/**
 * The no-op worker: marks every element of its chunk processed through the activity call and
 * exits 0. It does nothing else, which makes it the measure of what running a task costs (the
 * tasks benchmark) and a worker the tests can run for real.
 */
import fs from 'node:fs';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run this worker as a task of a process`);
  return value;
};

const apiUrl = env('ARKINDEX_API_URL');
const headers = {
  authorization: `Ponos ${env('ARKINDEX_TASK_TOKEN')}`,
  'content-type': 'application/json',
};
const runId = env('ARKINDEX_WORKER_RUN_ID');
const processId = env('ARKINDEX_PROCESS_ID');
const elements = JSON.parse(fs.readFileSync(env('TASK_ELEMENTS'), 'utf8')) as { id: string }[];

/** false when another copy of this worker run already took the element (409). */
async function report(elementId: string, state: 'started' | 'processed'): Promise<boolean> {
  const response = await fetch(`${apiUrl}workers/versions/${runId}/activity/`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ element_id: elementId, process_id: processId, state }),
  });
  if (response.status === 409 && state === 'started') return false;
  if (!response.ok) {
    throw new Error(
      `activity ${state} on ${elementId}: ${response.status} ${await response.text()}`,
    );
  }
  return true;
}

let done = 0;
for (const element of elements) {
  if (!(await report(element.id, 'started'))) continue;
  await report(element.id, 'processed');
  done += 1;
}
console.log(`${done} of ${elements.length} element(s) processed`);
