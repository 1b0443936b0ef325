import { expect, test, type Page } from '@playwright/test';
import { PASSWORD, ServerApi, logIn } from './support/annotation';
import { createUser, uniqueEmail } from './support/server';

test.use({ viewport: { width: 1280, height: 900 } });

/** One field of every type the spec lists (000 §3), as a worker author describes them. */
const USER_CONFIGURATION = {
  batch_size: { title: 'Batch size', type: 'int', default: 8 },
  threshold: { title: 'Threshold', type: 'float', required: false },
  label: { title: 'Label', type: 'string', default: 'lines' },
  notes: { title: 'Notes', type: 'text', required: false, help_text: 'Anything to remember' },
  mode: { title: 'Mode', type: 'enum', choices: ['fast', 'accurate'], default: 'fast' },
  verbose: { title: 'Verbose', type: 'bool', default: false },
  mapping: { title: 'Mapping', type: 'dict', required: false },
  sizes: { title: 'Sizes', type: 'list', subtype: 'int', required: false },
  model: { title: 'Model', type: 'model', required: false },
  token: { title: 'Token', type: 'secret', required: false },
  zone_type: { title: 'Zone type', type: 'element_type', required: false },
  parent: { title: 'Parent version', type: 'worker_version', required: false },
  options: {
    title: 'Options',
    type: 'group',
    children: { size: { title: 'Size', type: 'int', default: 3 } },
  },
};

const MISSING_MODEL = '00000000-0000-4000-8000-0000000000aa';

interface Created {
  id: string;
  name?: string;
}

async function openUserMenuEntry(page: Page, entry: string) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Worker Admin' })
    .click();
  await page.getByRole('menuitem', { name: entry }).click();
}

test('a worker author builds a configuration with every field type, sees each message, clones and archives it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const shots = test.info().outputPath();
  const suffix = Date.now().toString(36);
  const email = uniqueEmail('worker-admin');
  createUser(email, PASSWORD, { admin: true, displayName: 'Worker Admin' });
  await logIn(page, email);
  const api = new ServerApi(page);

  // A worker, a version describing its settings and a model to pick, through the API.
  const worker = await api.post<Created>('/workers/', {
    name: `Line recognizer ${suffix}`,
    slug: `line-recognizer-${suffix}`,
    type: 'recognizer',
    description: 'Reads text lines.',
  });
  const version = await api.post<Created>(`/workers/${worker.id}/versions/`, {
    configuration: { user_configuration: USER_CONFIGURATION },
    state: 'available',
    tag: 'v1',
  });
  const model = await api.post<Created>('/models/', { name: `Lines model ${suffix}` });

  await test.step('the worker is found in the workers list, its type in colour', async () => {
    await openUserMenuEntry(page, 'Workers');
    await expect(page.getByRole('heading', { name: 'Workers', level: 1 })).toBeVisible();
    await page.getByLabel('Search by name').fill(suffix);
    await page.getByRole('button', { name: 'Search' }).click();
    const row = page.getByRole('row', { name: new RegExp(`Line recognizer ${suffix}`) });
    await expect(row.locator('[data-worker-type="recognizer"]')).toHaveText('Recognizer');
    await expect(row.locator('[data-worker-type="recognizer"]')).toHaveClass(/bg-sky-100/);
    await page.screenshot({ path: `${shots}/workers-list.png` });
    await row.getByRole('link', { name: `Line recognizer ${suffix}` }).click();
    await expect(
      page.getByRole('heading', { name: `Line recognizer ${suffix}`, level: 1 }),
    ).toBeVisible();
    await expect(page.getByRole('table', { name: 'Versions' })).toContainText('v1');
  });

  const dialog = page.getByRole('dialog');
  const field = (label: RegExp) => dialog.getByLabel(label);
  const save = () => dialog.getByRole('button', { name: 'Save' }).click();

  await test.step('the form asks for a name, refuses the defaults and shows each field check', async () => {
    await page.getByRole('button', { name: 'New configuration' }).click();
    await expect(dialog.getByRole('heading', { name: 'New configuration' })).toBeVisible();
    await expect(field(/^Batch size/)).toHaveValue('8');
    await expect(field(/^Label/)).toHaveValue('lines');
    await expect(dialog.getByText('Anything to remember')).toBeVisible();
    await save();
    await expect(dialog.getByText('Please name your configuration')).toBeVisible();
    await expect(dialog.getByText('This already is the default configuration')).toBeVisible();

    await field(/^Name/).fill(`Everything ${suffix}`);
    await field(/^Label/).fill('');
    await field(/^Batch size/).fill('many');
    await field(/^Threshold/).fill('high');
    await field(/^Sizes/).fill('1\ntwo');
    await field(/^Model/).fill('not-a-uuid');
    await field(/^Parent version/).fill('1234');
    await save();
    await expect(dialog.getByText('Please name your configuration')).toHaveCount(0);
    await expect(field(/^Label/)).toHaveAccessibleDescription('This field is required.');
    await expect(field(/^Batch size/)).toHaveAccessibleDescription(
      'Value must be a valid integer.',
    );
    await expect(field(/^Threshold/)).toHaveAccessibleDescription('Value must be a valid float.');
    await expect(field(/^Sizes/)).toHaveAccessibleDescription('Value must be a valid list of int.');
    await expect(field(/^Model/)).toHaveAccessibleDescription('Value must be a valid UUID');
    await expect(field(/^Parent version/)).toHaveAccessibleDescription(
      'Value must be a valid UUID',
    );
    await page.screenshot({ path: `${shots}/field-messages.png` });
  });

  await test.step('the raw JSON mode checks the JSON with the same words', async () => {
    await dialog.getByRole('button', { name: 'Edit as JSON' }).click();
    const json = dialog.getByLabel('JSON configuration');
    await json.fill('{ not json');
    await save();
    await expect(dialog.getByText('Please enter a valid JSON configuration')).toBeVisible();
    await json.fill(
      JSON.stringify({
        label: 'lines',
        colour: 'red',
        mode: 'slow',
        verbose: 'yes',
        mapping: ['a'],
      }),
    );
    await save();
    await expect(dialog.getByText('colour: Unrecognised field')).toBeVisible();
    await expect(dialog.getByText('mode: slow is not a valid option.')).toBeVisible();
    await expect(dialog.getByText('verbose: Value must be a valid boolean.')).toBeVisible();
    await expect(dialog.getByText('mapping: Value must be a valid dictionary.')).toBeVisible();
    await page.screenshot({ path: `${shots}/json-messages.png` });
    await json.fill(JSON.stringify({ label: 'lines', batch_size: 16 }));
    await dialog.getByRole('button', { name: 'Edit as a form' }).click();
    await expect(field(/^Batch size/)).toHaveValue('16');
  });

  await test.step('every field type filled; a model that does not exist is refused by the server', async () => {
    await field(/^Threshold/).fill('0.25');
    await field(/^Notes/).fill('first line\nsecond line');
    await field(/^Mode\b/).selectOption('accurate');
    await field(/^Verbose/).check();
    await dialog.getByRole('button', { name: 'Add an entry' }).click();
    await dialog.getByLabel('Key 1').fill('lang');
    await dialog.getByLabel('Value 1').fill('fr');
    await field(/^Sizes/).fill('1\n2');
    await field(/^Model/).fill(MISSING_MODEL);
    await field(/^Token/).fill('api-token');
    await field(/^Zone type/).fill('text_line');
    await field(/^Parent version/).fill(version.id);
    await dialog.getByRole('group', { name: 'Options' }).getByLabel(/^Size/).fill('4');
    await save();
    await expect(dialog.getByText('This model does not exist')).toBeVisible();

    await dialog.getByRole('combobox', { name: 'Pick a model' }).selectOption(model.id);
    await expect(field(/^Model/)).toHaveValue(model.id);
    await page.screenshot({ path: `${shots}/every-field.png`, fullPage: true });
    await save();
    await expect(
      dialog.getByRole('heading', { name: `Configuration Everything ${suffix}` }),
    ).toBeVisible();
    await expect(field(/^Threshold/)).toBeDisabled();
  });

  const listed = async (archived: boolean) =>
    (
      await api.get<{ results: { name: string; configuration: unknown; archived: boolean }[] }>(
        `/workers/${worker.id}/configurations/?archived=${archived}`,
      )
    ).results;

  await test.step('the server holds it with each value of its type', async () => {
    const [saved] = await listed(false);
    expect(saved).toEqual(
      expect.objectContaining({
        name: `Everything ${suffix}`,
        archived: false,
        configuration: {
          batch_size: 16,
          threshold: 0.25,
          label: 'lines',
          notes: 'first line\nsecond line',
          mode: 'accurate',
          verbose: true,
          mapping: { lang: 'fr' },
          sizes: [1, 2],
          model: model.id,
          token: 'api-token',
          zone_type: 'text_line',
          parent: version.id,
          options: { size: 4 },
        },
      }),
    );
  });

  await test.step('a name taken shows the server’s message with a link to the existing one', async () => {
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'New configuration' }).click();
    await field(/^Name/).fill(`Everything ${suffix}`);
    await field(/^Batch size/).fill('32');
    await save();
    const conflict = dialog.getByRole('alert').filter({
      hasText: 'A worker configuration with this name already exists for this worker.',
    });
    await expect(conflict).toBeVisible();
    await page.screenshot({ path: `${shots}/name-conflict.png` });
    await conflict.getByRole('link', { name: 'See the existing configuration' }).click();
    await expect(
      dialog.getByRole('heading', { name: `Configuration Everything ${suffix}` }),
    ).toBeVisible();
    await expect(field(/^Batch size/)).toHaveValue('16');
  });

  await test.step("it is cloned as 'Copy of …'", async () => {
    await dialog.getByRole('button', { name: 'Clone' }).click();
    await expect(dialog.getByRole('heading', { name: 'Clone a configuration' })).toBeVisible();
    await expect(field(/^Name/)).toHaveValue(`Copy of Everything ${suffix}`);
    await expect(field(/^Batch size/)).toHaveValue('16');
    await field(/^Batch size/).fill('24');
    await save();
    await expect(
      dialog.getByRole('heading', { name: `Configuration Copy of Everything ${suffix}` }),
    ).toBeVisible();
    expect((await listed(false)).map((item) => item.name).sort()).toEqual([
      `Copy of Everything ${suffix}`,
      `Everything ${suffix}`,
    ]);
  });

  await test.step('it is archived, and listed under Archived', async () => {
    await dialog.getByRole('button', { name: 'Archive' }).click();
    await expect(dialog.getByRole('button', { name: 'Unarchive' })).toBeVisible();
    await expect(
      dialog.getByText('This configuration is archived: it cannot be chosen in a process.'),
    ).toBeVisible();
    expect((await listed(true)).map((item) => item.name)).toEqual([`Copy of Everything ${suffix}`]);
    await dialog.getByRole('button', { name: 'Close' }).click();
    const list = page.getByRole('list', { name: 'Configurations' });
    await expect(
      list.getByRole('button', { name: `Copy of Everything ${suffix}`, exact: true }),
    ).toHaveCount(0);
    await page.getByRole('radio', { name: 'Archived' }).click();
    await expect(
      list.getByRole('button', { name: `Copy of Everything ${suffix}`, exact: true }),
    ).toBeVisible();
    await page.screenshot({ path: `${shots}/archived.png` });
  });

  await test.step('the version page shows its fields and runs locally; the run opens its details', async () => {
    await page
      .getByRole('table', { name: 'Versions' })
      .getByRole('link', { name: 'Details' })
      .click();
    const fields = page.getByRole('table', { name: 'Configuration fields' });
    await expect(fields.getByRole('row', { name: /batch_size/ })).toContainText('int');
    await expect(fields.getByRole('row', { name: /sizes/ })).toContainText('list of int');
    await expect(fields.getByRole('row', { name: /Anything to remember/ })).toContainText('text');
    await expect(page.getByRole('region', { name: 'Details' })).toContainText('v1');
    await page.screenshot({ path: `${shots}/worker-version.png`, fullPage: true });

    await page.getByRole('button', { name: 'Run locally' }).click();
    await expect(page.getByText('Worker run added to your local process.')).toBeVisible();
    const runs = await api.get<{ results: Created[] }>('/process/local/workers/');
    expect(runs.results).toHaveLength(1);
    const run = runs.results[0]!;
    await openUserMenuEntry(page, 'Worker runs');
    const row = page
      .getByRole('table', { name: 'Worker runs' })
      .getByRole('row', { name: new RegExp(`Line recognizer ${suffix}`) });
    await expect(row).toContainText('Version 1');
    await row.getByRole('button', { name: `Details of the Line recognizer ${suffix} run` }).click();
    const modal = page.getByRole('dialog', { name: 'Worker run details' });
    await expect(modal).toContainText(run.id);
    await expect(modal).toContainText('No configuration.');
    await page.screenshot({ path: `${shots}/worker-run.png` });
  });
});
