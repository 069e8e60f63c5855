// The User-Agent every request carries: the app's name and version, so the
// service's operators can tell our traffic apart (and which release sent it).
import packageJson from '../../package.json' with { type: 'json' };

export function defaultUserAgent(): string {
  return `svc-desktop/${packageJson.version} (node)`;
}
