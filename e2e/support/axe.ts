import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's best practices. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** What stops a screen: impacts that keep someone from using it, or make it very hard. */
const BLOCKING = new Set(['serious', 'critical']);

/**
 * Rules held as strictly although axe rates them moderate: a heading level skipped (h1 then
 * h3) hides the page's outline from screen-reader users who move by headings.
 */
const HELD = new Set(['heading-order']);

export interface AxeProblem {
  rule: string;
  impact: string;
  help: string;
  /** One CSS path per node found, shortened to the last selectors. */
  targets: string[];
}

/** The serious and critical violations (and held rules) axe finds on the page as it is now. */
export async function axeProblems(page: Page): Promise<AxeProblem[]> {
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return results.violations
    .filter((violation) => BLOCKING.has(violation.impact ?? '') || HELD.has(violation.id))
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? 'unknown',
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.map(String).join(' >> ')),
    }));
}

/** One line per problem: rule id, impact, help, then the elements it was found on. */
export function describeProblems(problems: AxeProblem[]): string[] {
  return problems.map(
    (problem) =>
      `${problem.rule} (${problem.impact}): ${problem.help} — on ${problem.targets.join(', ')}`,
  );
}

/**
 * Runs axe on the current screen and fails, listing each problem, when it finds a serious or
 * critical violation. Soft by default, so one run reports every screen at once.
 */
export async function expectReadsWell(
  page: Page,
  screen: string,
  options: { soft?: boolean } = {},
): Promise<void> {
  const lines = describeProblems(await axeProblems(page));
  const check = options.soft === false ? expect : expect.soft;
  check(lines, `axe on ${screen}:\n${lines.join('\n')}`).toEqual([]);
}
