// `npm run bench -- <name> [options]`: runs test/bench/<name>.ts, whose last
// stdout line is one JSON object of figures.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const [name, ...rest] = process.argv.slice(2);
const benches = ['emulator', 'mirror', 'redaction', 'sync', 'ui'];
if (!name || !benches.includes(name)) {
  console.error(`usage: npm run bench -- <${benches.join('|')}> [options]`);
  process.exit(2);
}
const file = join(import.meta.dirname, `${name}.ts`);
if (!existsSync(file)) {
  console.error(`the ${name} benchmark is not written yet (${file})`);
  process.exit(2);
}
process.argv = [process.argv[0] ?? 'node', file, ...rest];
await import(pathToFileURL(file).href);
