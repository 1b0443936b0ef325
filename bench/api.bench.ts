/**
 * API read paths on SQLite and PostgreSQL, side by side: the project list a user sees on
 * the Projects page and one project, with 200 projects in the database.
 */
import { hashPassword } from '../server/auth/passwords';
import { measure, printTable, type Figure } from './measure';
import { postgresAnswers, seedProject, seedUser, withBenchApp, type DialectName } from './seed';

function benchDialect(dialect: DialectName): Promise<Figure[]> {
  return withBenchApp(dialect, async (app) => {
    const user = await seedUser(app);
    let firstId = '';
    for (let i = 0; i < 200; i += 1) {
      const id = await seedProject(app, user, `Project ${i}`);
      firstId ||= id;
    }
    const { headers } = user;
    return [
      await measure(`${dialect}: GET /corpus/ (200 projects)`, 200, () =>
        app.inject({ url: '/api/v1/corpus/', headers }),
      ),
      await measure(`${dialect}: GET /corpus/{id}/`, 1000, () =>
        app.inject({ url: `/api/v1/corpus/${firstId}/`, headers }),
      ),
      await measure(`${dialect}: GET /api/v1/ (server info)`, 2000, () =>
        app.inject({ url: '/api/v1/' }),
      ),
    ];
  });
}

export async function run(): Promise<void> {
  const figures = await benchDialect('sqlite');
  const withPg = await postgresAnswers();
  const pgFigures = withPg ? await benchDialect('postgres') : [];
  printTable([...figures, ...pgFigures]);
  if (withPg) {
    console.log('\nratio PostgreSQL / SQLite (median time):');
    figures.forEach((f, i) => {
      const other = pgFigures[i];
      if (other)
        console.log(
          `  ${f.label.replace(/^sqlite: /, '')}: ${(other.medianMs / f.medianMs).toFixed(2)}×`,
        );
    });
  } else {
    console.log('\n(PostgreSQL unreachable: SQLite figures only)');
  }
  const t0 = performance.now();
  await hashPassword('a password to hash');
  console.log(
    `\nscrypt password hash: ${(performance.now() - t0).toFixed(0)} ms (slows guessing; paid once per login)`,
  );
}
