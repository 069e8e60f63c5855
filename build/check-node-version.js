// `npm install`'s preinstall: stops with one clear message when this Node is not
// one package.json's engines.node allows, before a dependency fails obscurely.
// Plain Node, no dependencies (none are installed yet) and nothing newer than
// Node 14 reads. `node build/check-node-version.js 18.20.4` checks a given
// version instead of this one.
import { readFileSync } from 'fs';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const range = manifest.engines.node;

function parse(version) {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(version.trim());
  if (!match) throw new Error('not a version: ' + version);
  return [Number(match[1]), Number(match[2] || 0), Number(match[3] || 0)];
}

function compare(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** One comparator set of the forms engines.node uses here: `^20.19.0` or `>=22.12.0`. */
function allows(part, version) {
  const trimmed = part.trim();
  if (trimmed.startsWith('>=')) return compare(version, parse(trimmed.slice(2))) >= 0;
  if (trimmed.startsWith('^')) {
    const floor = parse(trimmed.slice(1));
    return version[0] === floor[0] && compare(version, floor) >= 0;
  }
  throw new Error('build/check-node-version.js reads only ^X.Y.Z and >=X.Y.Z, not ' + trimmed);
}

const given = process.argv[2];
const current = given === undefined ? process.versions.node : given;
const ok = range.split('||').some((part) => allows(part, parse(current)));
if (!ok) {
  process.stderr.write(
    'svc-desktop needs Node ' +
      range +
      ' (22.12 or newer recommended: Node 20 is past its end of life); this is Node ' +
      current +
      (given === undefined ? ' (' + process.execPath + ')' : '') +
      '. Install a current Node (https://nodejs.org, or `nvm install 22`) and run npm install again.\n',
  );
  process.exitCode = 1;
}
