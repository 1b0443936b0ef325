/**
 * The workers shipped in workers/ are published when the server starts: "Tesseract OCR", "No-op"
 * and the document export workers, each with an available version that names its command and schema, and a new version
 * only when what the server would publish changed.
 */
import { expect, it } from 'vitest';
import { publishBuiltinWorkers } from '../../../server/services/workers/builtinWorkers';
import { Client, createTestUser, describeEachDialect } from '../../server/harness';

describeEachDialect('built-in workers', ({ t }) => {
  const versionsOf = async (slug: string) => {
    const { app } = t();
    return app.db
      .selectFrom('worker_versions')
      .innerJoin('workers', 'workers.id', 'worker_versions.worker_id')
      .select(['worker_versions.id', 'worker_versions.configuration', 'worker_versions.version'])
      .where('workers.slug', '=', slug)
      .orderBy('worker_versions.version')
      .execute();
  };

  it('lists Tesseract OCR and No-op with an available version to run', async () => {
    const { app } = t();
    const user = await createTestUser(app);
    const client = new Client(app, user.token);
    const listed = await client.get('workers/?page_size=100');
    expect(listed.statusCode, listed.body).toBe(200);
    const workers = listed.json().results as {
      id: string;
      slug: string;
      name: string;
      type: string;
    }[];
    const tesseract = workers.find((worker) => worker.slug === 'tesseract');
    expect(tesseract).toMatchObject({ name: 'Tesseract OCR', type: 'recognizer' });
    expect(workers.find((worker) => worker.slug === 'noop')).toMatchObject({ name: 'No-op' });

    const versions = await client.get(`workers/${tesseract!.id}/versions/`);
    expect(versions.statusCode, versions.body).toBe(200);
    expect(versions.json().results).toHaveLength(1);
    const [version] = versions.json().results;
    expect(version).toMatchObject({
      state: 'available',
      model_usage: 'supported',
      configuration: {
        command: ['tsx', '{folia}/workers/tesseract/main.ts'],
        user_configuration: {
          languages: { type: 'string', default: 'frk' },
          psm: { type: 'enum', choices: [1, 3, 4, 6, 11], default: 3 },
          min_confidence: { type: 'float', default: 0 },
          create_lines: { type: 'bool', default: true },
          line_type: { type: 'element_type', default: 'text_line' },
          create_regions: { type: 'bool', default: false },
        },
      },
    });
  });

  it('lists one export worker per format, its version providing the format’s feature', async () => {
    const { app } = t();
    const client = new Client(app, (await createTestUser(app)).token);
    for (const [format, name] of [
      ['pdf', 'PDF export'],
      ['pagexml', 'PAGE XML export'],
      ['alto', 'ALTO export'],
      ['docx', 'DOCX export'],
      ['csv', 'CSV export'],
    ] as const) {
      const response = await client.get(`workers/versions/feature/${format}_export/`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({
        state: 'available',
        feature: `${format}_export`,
        worker: { name, slug: `${format}-export`, type: 'export' },
        configuration: {
          command: ['tsx', '{folia}/workers/export/main.ts', '--format', format],
        },
      });
    }
  });

  it('moves an export feature to the new version when the configuration changed', async () => {
    const { app } = t();
    const before = await versionsOf('csv-export');
    await app.db
      .updateTable('worker_versions')
      .set({ configuration: JSON.stringify({ command: ['old'], user_configuration: {} }) })
      .where('id', '=', before[before.length - 1]!.id)
      .execute();
    await publishBuiltinWorkers(app.db);
    const after = await versionsOf('csv-export');
    expect(after).toHaveLength(before.length + 1);
    const features = await app.db
      .selectFrom('worker_versions')
      .select(['id', 'feature'])
      .where('feature', '=', 'csv_export')
      .execute();
    expect(features).toEqual([{ id: after[after.length - 1]!.id, feature: 'csv_export' }]);
  });

  it('publishes again without a new version, and makes one when the configuration changed', async () => {
    const { app } = t();
    await publishBuiltinWorkers(app.db);
    await publishBuiltinWorkers(app.db);
    const before = await versionsOf('tesseract');
    expect(before).toHaveLength(1);
    expect(await versionsOf('noop')).toHaveLength(1);

    // As if an older Folia had published another command: the server's is published anew.
    await app.db
      .updateTable('worker_versions')
      .set({ configuration: JSON.stringify({ command: ['old'], user_configuration: {} }) })
      .where('id', '=', before[0]!.id)
      .execute();
    await publishBuiltinWorkers(app.db);
    const after = await versionsOf('tesseract');
    expect(after).toHaveLength(2);
    expect(JSON.parse(after[1]!.configuration).command).toEqual([
      'tsx',
      '{folia}/workers/tesseract/main.ts',
    ]);
    expect(after[1]!.version).toBe(2);
  });
});
