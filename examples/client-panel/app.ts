import { createLoupe, currentRequest, html, LoupeResponse, type PanelDefinition, type ProfileCollector } from 'loupe-kernel';

/** What the library records of each call, and what its panel shows. */
interface FlagLookup {
  readonly flag: string;
  readonly enabled: boolean;
  readonly ms: number;
}
type FlagData = { readonly lookups: readonly FlagLookup[]; readonly dropped: number };

// The library: each call is published into the request running it, if any.
export function isEnabled(flag: string): boolean {
  const started = performance.now();
  const enabled = flag.startsWith('new-');
  currentRequest()?.record('feature_flags', { flag, enabled, ms: performance.now() - started } satisfies FlagLookup);
  return enabled;
}

// Its collector copies the calls into the profile, its panel shows them.
const flagsCollector: ProfileCollector<FlagData> = {
  name: 'feature_flags',
  collect: (request) => {
    const { entries, dropped } = request.records<FlagLookup>('feature_flags');
    return { lookups: entries.map((lookup) => ({ ...lookup })), dropped };
  },
};

const flagsPanel: PanelDefinition<FlagData> = {
  name: 'feature_flags',
  label: 'Feature flags',
  collector: 'feature_flags',
  badge: ({ lookups }) => ({ count: lookups.length, isError: false }),
  render: ({ data }) =>
    html`<table><tr><th>Flag</th><th>Enabled</th><th>Time</th></tr>${data.lookups.map(
      (lookup) => html`<tr><td>${lookup.flag}</td><td>${lookup.enabled ? 'yes' : 'no'}</td><td>${lookup.ms.toFixed(3)} ms</td></tr>`,
    )}</table>`,
};

const app = createLoupe({
  routes: [{ name: 'checkout', path: '/checkout', methods: ['GET'], controller: { name: 'checkout', handle: () => new LoupeResponse(isEnabled('new-checkout') ? 'New checkout' : 'Old checkout') } }],
  collectors: [flagsCollector],
  panels: [flagsPanel],
});

app.listen().then(({ url }) => console.log(`Listening on ${url}`));
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
