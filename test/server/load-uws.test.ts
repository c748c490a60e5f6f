import test from 'ava';
import * as uws from 'uWebSockets.js';
import { isNativeUws, loadNativeUws, type Uws } from '../../src/server/load-uws';

test('the installed uWebSockets.js is the native binary', (t) => {
  t.true(isNativeUws(uws));
  t.is(loadNativeUws(uws), uws);
});

test('a JavaScript imitation is refused with a clear error', (t) => {
  const imitation = { ...uws, App: function App() { return {}; } } as unknown as Uws;
  t.false(isNativeUws(imitation));
  const error = t.throws(() => loadNativeUws(imitation));
  t.is((error as { code?: string }).code, 'LOUPE_ERR_SERVER_UWS_FALLBACK');
});
