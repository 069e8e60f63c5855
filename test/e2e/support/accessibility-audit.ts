// An accessibility audit of what the page shows now: axe-core (the rules
// screen-reader and keyboard users rely on: names, roles, contrast, focus)
// run inside the page, in light and in dark, keeping the violations a person
// is blocked or seriously hindered by (impact serious or critical).
import axe from 'axe-core';
import type { Page } from 'playwright-core';

export interface AuditFinding {
  theme: 'light' | 'dark';
  /** The axe rule, e.g. `color-contrast`, `label`, `scrollable-region-focusable`. */
  rule: string;
  impact: string;
  help: string;
  /** CSS paths of the elements at fault, and axe's words on what to fix in the first. */
  targets: string[];
  summary: string;
}

const BLOCKING = new Set(['serious', 'critical']);

/**
 * What a rule flags where the app meets its purpose another way, each with
 * why (and a test of that way: accessibility.test.ts).
 */
const MET_OTHERWISE: readonly { rule: string; target: string; why: string }[] = [
  {
    rule: 'scrollable-region-focusable',
    target: '.grid-body',
    why:
      "the task grid's rows scroll inside the grid (role grid, one tab stop), whose arrows, " +
      'Page Up/Down, Home and End move the active row and scroll to it; a second tab stop on ' +
      'the scroller would only hold the focus where no row is named active',
  },
];

/**
 * Whether axe is in the page already. The app's CSP (script-src 'self')
 * refuses an inline <script> such as `page.addScriptTag({ content })` makes;
 * `page.evaluate` runs through the DevTools protocol, which the CSP does not
 * govern, so the audited page keeps its real policy.
 */
async function injectAxe(page: Page): Promise<void> {
  const present = await page.evaluate<boolean>('typeof window.axe === "object"');
  if (!present) await page.evaluate(axe.source);
}

interface AxeViolationJson {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

async function auditNow(page: Page, theme: 'light' | 'dark'): Promise<AuditFinding[]> {
  await injectAxe(page);
  // A string, not a function: the TypeScript runner's helpers would not exist in the page.
  const violations = await page.evaluate<AxeViolationJson[]>(`(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  })()`);
  const findings: AuditFinding[] = [];
  for (const violation of violations) {
    if (violation.impact === null || !BLOCKING.has(violation.impact)) continue;
    const nodes = violation.nodes.filter((node) => {
      const target = node.target.map(String).join(' ');
      return !MET_OTHERWISE.some((met) => met.rule === violation.id && met.target === target);
    });
    if (nodes.length === 0) continue;
    findings.push({
      theme,
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: nodes.map((node) => node.target.map(String).join(' ')),
      summary: nodes[0]?.failureSummary ?? '',
    });
  }
  return findings;
}

/**
 * The serious and critical violations of what the page shows, in the light
 * theme and then in the dark one (as the system asks for it); the page is left
 * in light. Transitions are off (the app is opened with reduced motion), so
 * the colours read are the theme's own.
 */
export async function blockingViolations(page: Page): Promise<AuditFinding[]> {
  await page.emulateMedia({ colorScheme: 'light' });
  const light = await auditNow(page, 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  try {
    return [...light, ...(await auditNow(page, 'dark'))];
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
  }
}
