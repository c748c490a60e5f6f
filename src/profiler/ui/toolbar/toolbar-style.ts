/**
 * The toolbar's stylesheet, injected with it into the application's page. Every rule is scoped
 * to `.lwdt`, and a reset comes first so the page's own rules (`td { … }`, `a { … }`) do not
 * reach inside. The toolbar's content carries no `style` attribute: under a Content-Security-Policy
 * a nonce allows this stylesheet, but nothing allows inline style attributes.
 */
export const TOOLBAR_STYLE = `
.lwdt{display:block;height:36px}
.lwdt.lwdt-collapsed{height:0}
.lwdt-bar,.lwdt-bar *{box-sizing:border-box;margin:0;padding:0;border:0;background:none;color:inherit;font:inherit;line-height:inherit;letter-spacing:normal;text-align:left;text-decoration:none;text-transform:none;text-shadow:none;box-shadow:none;float:none;vertical-align:baseline}
.lwdt-bar{position:fixed;left:0;right:0;bottom:0;z-index:2147483000;display:flex;height:36px;background:#1f2328;color:#d7dce1;font:13px/36px system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;box-shadow:0 -1px 6px rgba(0,0,0,.3)}
.lwdt-content{display:flex;flex:1;min-width:0}
.lwdt-item{position:relative;display:flex;align-items:center;gap:6px;padding:0 11px;border-right:1px solid #30363d;white-space:nowrap}
.lwdt-bar a{cursor:pointer}
.lwdt-bar a.lwdt-item:hover,.lwdt-block:hover,.lwdt-block:focus-within{background:#2b3139}
.lwdt-brand{color:#8ab4f8;padding:0 10px}
.lwdt-brand svg,.lwdt-toggle svg{display:block;width:16px;height:16px}
.lwdt-status{font-weight:700;color:#fff}
.lwdt-status-ok{background:#2f7d4a}
.lwdt-status-redirect{background:#9a6b0c}
.lwdt-status-warning{background:#b7791f}
.lwdt-status-error,.lwdt-errors-some{background:#b3362f;color:#fff}
.lwdt-bar a.lwdt-status-ok:hover{background:#38925a}
.lwdt-bar a.lwdt-status-error:hover,.lwdt-bar .lwdt-errors-some:hover{background:#c9443c}
.lwdt-label,.lwdt-unit{color:#9aa4ae;font-size:11px}
.lwdt-errors-some .lwdt-label,.lwdt-errors-some .lwdt-unit{color:#ffd9d6}
.lwdt-value{color:#fff;font-weight:600}
.lwdt-muted{color:#9aa4ae}
.lwdt-block>a{display:flex;align-items:center;gap:6px;height:100%}
.lwdt-timeline{display:block;width:120px;height:12px;background:#2b3139;border-radius:2px}
.lwdt-phase{fill:#6e7781}
.lwdt-phase-kernel-request{fill:#4c8bf5}
.lwdt-phase-kernel-controller,.lwdt-phase-kernel-controller_arguments{fill:#8e6bd8}
.lwdt-phase-controller{fill:#3fb950}
.lwdt-phase-kernel-view{fill:#2aa198}
.lwdt-phase-kernel-response{fill:#39c5cf}
.lwdt-phase-kernel-exception,.lwdt-phase-error_sub_request{fill:#f85149}
.lwdt-phase-kernel-finish_request{fill:#b08800}
.lwdt-phase-kernel-terminate{fill:#8b949e}
.lwdt-info{display:none;position:absolute;left:0;bottom:36px;min-width:280px;padding:8px 12px;background:#1f2328;border:1px solid #30363d;border-bottom:0;border-radius:6px 6px 0 0;line-height:1.6;box-shadow:0 -4px 12px rgba(0,0,0,.3)}
.lwdt-block:hover .lwdt-info,.lwdt-block:focus-within .lwdt-info{display:block}
.lwdt-info table{display:table;border-collapse:collapse;width:100%}
.lwdt-info tr{display:table-row}
.lwdt-info th,.lwdt-info td{display:table-cell;padding:1px 12px 1px 0;font-weight:400}
.lwdt-info th{color:#9aa4ae}
.lwdt-info td{color:#fff;text-align:right;padding-right:0}
.lwdt-info .lwdt-swatch{display:inline-block;width:8px;height:8px;margin-right:6px;border-radius:2px}
.lwdt-io-warn{background:#9a6b0c}
.lwdt-io-warn .lwdt-label,.lwdt-io-warn .lwdt-unit{color:#ffe8b3}
.lwdt-io-error{background:#b3362f}
.lwdt-io-error .lwdt-label,.lwdt-io-error .lwdt-unit{color:#ffd9d6}
.lwdt-io-badge{margin-left:4px;padding:0 6px;border-radius:8px;background:#fff3cd;color:#5c3d00;font-size:11px;line-height:18px}
.lwdt-profile{margin-left:auto;border-left:1px solid #30363d;border-right:0;color:#8ab4f8}
.lwdt-profile b{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-weight:600}
.lwdt-loading{color:#9aa4ae;font-style:italic}
.lwdt-failed{color:#ffb4ad;font-style:normal}
.lwdt-toggle{display:flex;align-items:center;justify-content:center;width:36px;flex:none;cursor:pointer;color:#9aa4ae;border-left:1px solid #30363d}
.lwdt-toggle:hover,.lwdt-toggle:focus-visible{color:#fff;background:#2b3139}
.lwdt-toggle .lwdt-show,.lwdt-collapsed .lwdt-toggle .lwdt-hide,.lwdt-collapsed .lwdt-content{display:none}
.lwdt-collapsed .lwdt-toggle .lwdt-show{display:block;color:#8ab4f8}
.lwdt-collapsed .lwdt-bar{left:auto;width:36px;border-radius:6px 0 0 0}
.lwdt-collapsed .lwdt-toggle{border-left:0}
@media (max-width:760px){.lwdt-route,.lwdt-memory,.lwdt-io-redis,.lwdt-io-http_client{display:none}}
`;
