/** Node 22's ABI (`process.versions.modules`): uWebSockets.js' binaries from here on come from a uWS with the fix. */
const FIRST_FIXED_ABI = 127;

/**
 * The warning a production start prints first on a runtime whose uWebSockets.js binary fails a
 * request line split across two TCP reads (505, connection closed: uNetworking/uWebSockets#1776,
 * a regression fixed upstream in 2024). Over a real network a URL longer than one segment is
 * split, so such requests fail at random; loopback hides it. Null on a runtime with the fix.
 */
export function splitRequestLineWarning(abi: string = process.versions.modules, node: string = process.versions.node): string | null {
  if (Number(abi) >= FIRST_FIXED_ABI) return null;
  return (
    `Warning: on Node ${node} uWebSockets.js' parser answers 505 and closes the connection when a request line arrives in two TCP reads ` +
    '(uNetworking/uWebSockets#1776, fixed upstream in 2024), as long URLs do over a real network. ' +
    'Run Node 22.20+ or 24.12+ on glibc 2.38 or later (the Docker image: Node 24 on Debian 13), or put a proxy in front that forwards whole request heads.'
  );
}
