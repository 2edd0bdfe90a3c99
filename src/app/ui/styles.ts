/**
 * The app host's one stylesheet, inlined in every page (no external assets): system font stack, light and
 * dark themes from `prefers-color-scheme`, a top bar with a left navigation that folds into a row on narrow
 * screens, and the component classes of ./components.ts.
 */
export const stylesheet = `
:root{--bg:#f7f7f8;--surface:#fff;--surface-2:#f3f4f6;--border:#e4e4e7;--border-strong:#d4d4d8;--text:#18181b;
--muted:#71717a;--accent:#4f46e5;--accent-hover:#4338ca;--accent-soft:#eef2ff;--accent-text:#fff;--danger:#dc2626;
--danger-soft:#fef2f2;--success:#15803d;--success-soft:#f0fdf4;--warn:#b45309;--warn-soft:#fffbeb;
--ring:0 0 0 3px rgba(79,70,229,.25);--shadow:0 1px 2px rgba(0,0,0,.04),0 1px 3px rgba(0,0,0,.06);
--radius:10px;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#0b0b0d;--surface:#131316;--surface-2:#1b1b1f;--border:#27272a;
--border-strong:#3f3f46;--text:#ececef;--muted:#a1a1aa;--accent:#818cf8;--accent-hover:#a5b4fc;--accent-soft:#1e1b4b;
--accent-text:#0b0b0d;--danger:#f87171;--danger-soft:#2a1215;--success:#4ade80;--success-soft:#0f2417;--warn:#fbbf24;
--warn-soft:#2a2110;--ring:0 0 0 3px rgba(129,140,248,.35);--shadow:0 1px 2px rgba(0,0,0,.4)}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--text);font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,
"Helvetica Neue",Arial,sans-serif;-webkit-font-smoothing:antialiased}
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
h1,h2,h3{margin:0;letter-spacing:-.01em;line-height:1.25}h1{font-size:22px;font-weight:650}
h2{font-size:15px;font-weight:600}h3{font-size:14px;font-weight:600}p{margin:0 0 .75em}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
.muted{color:var(--muted)}.small{font-size:12.5px}.nowrap{white-space:nowrap}
.topbar{position:sticky;top:0;z-index:10;display:flex;align-items:center;gap:12px;height:56px;padding:0 20px;
background:color-mix(in srgb,var(--surface) 88%,transparent);backdrop-filter:blur(8px);border-bottom:1px solid var(--border)}
.brand{display:flex;align-items:center;gap:8px;font-weight:650;color:var(--text);font-size:15px}
.brand:hover{text-decoration:none}
.logo{display:inline-grid;place-items:center;width:24px;height:24px;border-radius:7px;
background:linear-gradient(135deg,#6366f1,#a855f7);color:#fff;font-size:13px;font-weight:700}
.slash{color:var(--border-strong);font-size:20px;font-weight:300}
.spacer{flex:1}
.menu{position:relative}.menu>summary{list-style:none;cursor:pointer;display:flex;align-items:center;gap:8px;
padding:6px 10px;border-radius:8px;border:1px solid transparent;font-weight:500;user-select:none}
.menu>summary::-webkit-details-marker{display:none}
.truncate{white-space:nowrap;overflow:hidden;text-overflow:ellipsis;max-width:320px}.menu>summary:hover{background:var(--surface-2)}
.menu[open]>summary{background:var(--surface-2);border-color:var(--border)}
.menu>summary::after{content:"";width:6px;height:6px;border-right:1.5px solid var(--muted);
border-bottom:1.5px solid var(--muted);transform:rotate(45deg) translateY(-2px);margin-left:2px}
.menu-panel{position:absolute;top:calc(100% + 6px);min-width:240px;background:var(--surface);border:1px solid var(--border);
border-radius:var(--radius);box-shadow:0 10px 30px rgba(0,0,0,.12);padding:6px;z-index:20}
.menu-panel.right{right:0}.menu-panel a,.menu-panel button{display:flex;width:100%;align-items:center;gap:8px;
padding:7px 10px;border-radius:6px;color:var(--text);background:none;border:0;font:inherit;text-align:left;cursor:pointer}
.menu-panel a:hover,.menu-panel button:hover{background:var(--surface-2);text-decoration:none}
.menu-panel .current{font-weight:600}.menu-panel .current::after{content:"✓";margin-left:auto;color:var(--accent)}
.menu-label{padding:6px 10px 4px;font-size:11.5px;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
.menu-sep{height:1px;background:var(--border);margin:6px 0}
.avatar{display:inline-grid;place-items:center;width:26px;height:26px;border-radius:50%;background:var(--accent-soft);
color:var(--accent);font-size:12px;font-weight:650}
.shell{display:grid;grid-template-columns:232px minmax(0,1fr);min-height:calc(100vh - 56px)}
.sidebar{border-right:1px solid var(--border);padding:18px 12px;background:var(--surface)}
.nav-section{margin-bottom:18px}.nav-title{padding:0 10px 6px;font-size:11.5px;color:var(--muted);
text-transform:uppercase;letter-spacing:.05em}
.nav a{display:flex;align-items:center;gap:10px;padding:7px 10px;border-radius:7px;color:var(--muted);font-weight:500}
.nav a:hover{background:var(--surface-2);color:var(--text);text-decoration:none}
.nav a[aria-current=page]{background:var(--accent-soft);color:var(--accent)}
.nav svg{width:16px;height:16px;flex:none}
.content{padding:32px 40px 64px;max-width:1120px;width:100%;min-width:0}
.page-header{display:flex;align-items:flex-end;justify-content:space-between;gap:16px;margin-bottom:24px}
.page-header p{margin:6px 0 0;color:var(--muted)}
.card{background:var(--surface);border:1px solid var(--border);border-radius:var(--radius);box-shadow:var(--shadow);
margin-bottom:20px;overflow:hidden}
.card-header{display:flex;align-items:center;justify-content:space-between;gap:12px;padding:16px 20px;
border-bottom:1px solid var(--border)}.card-header p{margin:2px 0 0;color:var(--muted);font-size:13px}
.card-body{padding:20px}.card-footer{padding:12px 20px;border-top:1px solid var(--border);background:var(--surface-2);
display:flex;justify-content:flex-end;gap:8px}
.table-wrap{overflow-x:auto}
table{width:100%;border-collapse:collapse}th{font-size:12px;font-weight:500;color:var(--muted);text-align:left;
padding:10px 20px;background:var(--surface-2);border-bottom:1px solid var(--border);white-space:nowrap}
td{padding:12px 20px;border-bottom:1px solid var(--border);vertical-align:middle}tr:last-child td{border-bottom:0}
td.actions{text-align:right;white-space:nowrap}td.actions form{display:inline-flex;gap:6px;margin-left:6px}
.cell-title{font-weight:550}.cell-sub{color:var(--muted);font-size:12.5px}
.badge{display:inline-flex;align-items:center;gap:4px;padding:1px 8px;border-radius:999px;font-size:12px;
font-weight:500;border:1px solid var(--border);color:var(--muted);background:var(--surface-2);white-space:nowrap}
.badge.accent{color:var(--accent);background:var(--accent-soft);border-color:transparent}
.badge.success{color:var(--success);background:var(--success-soft);border-color:transparent}
.badge.danger{color:var(--danger);background:var(--danger-soft);border-color:transparent}
.badge.warn{color:var(--warn);background:var(--warn-soft);border-color:transparent}
.btn,button{display:inline-flex;align-items:center;justify-content:center;gap:6px;height:34px;padding:0 14px;
border-radius:8px;border:1px solid var(--border-strong);background:var(--surface);color:var(--text);font:inherit;
font-weight:550;cursor:pointer;white-space:nowrap;text-decoration:none}
.btn:hover,button:hover{background:var(--surface-2);text-decoration:none}
.btn.primary,button.primary{background:var(--accent);border-color:var(--accent);color:var(--accent-text)}
.btn.primary:hover,button.primary:hover{background:var(--accent-hover);border-color:var(--accent-hover)}
.btn.danger,button.danger{color:var(--danger)}.btn.danger:hover,button.danger:hover{background:var(--danger-soft)}
.btn.small,button.small{height:28px;padding:0 10px;font-size:13px}
button:focus-visible,.btn:focus-visible,input:focus,select:focus,textarea:focus,a:focus-visible{outline:none;box-shadow:var(--ring)}
form{margin:0}.form-grid{display:grid;gap:16px}.form-row{display:grid;grid-template-columns:repeat(auto-fit,minmax(200px,1fr));gap:16px}
label,.label{display:block;font-weight:550;font-size:13px;margin-bottom:6px}
.field .hint{color:var(--muted);font-size:12.5px;margin-top:5px}
input[type=text],input[type=email],input[type=password],input[type=number],input[type=date],input[type=url],select,textarea{
width:100%;height:36px;padding:0 11px;border-radius:8px;border:1px solid var(--border-strong);background:var(--surface);
color:var(--text);font:inherit}textarea{height:auto;padding:8px 11px}
fieldset{border:0;padding:0;margin:0;min-width:0}legend{font-weight:550;font-size:13px;margin-bottom:6px;padding:0}
.choices{display:grid;gap:6px}.choice{display:flex;gap:8px;align-items:flex-start;font-weight:400;margin:0;padding:8px 10px;
border:1px solid var(--border);border-radius:8px;cursor:pointer}.choice:hover{background:var(--surface-2)}
.choice input{margin-top:3px;accent-color:var(--accent)}.choice small{display:block;color:var(--muted)}
.form-actions{display:flex;gap:8px;align-items:center}
.filters{display:flex;flex-wrap:wrap;gap:0 12px;align-items:flex-end;margin-bottom:12px}.filters .field{min-width:140px}
.form-actions.wrap{flex-wrap:wrap}
form:has(input[name=accessKind][value=organization]:checked) .website-choices{display:none}
#new-key{border-color:color-mix(in srgb,var(--accent) 45%,var(--border));box-shadow:var(--ring)}
.flash{display:flex;gap:10px;padding:12px 16px;border-radius:var(--radius);border:1px solid var(--border);
margin-bottom:20px;background:var(--surface)}.flash strong{display:block}.flash p{margin:2px 0 0;color:var(--muted)}
.flash.error{border-color:color-mix(in srgb,var(--danger) 40%,transparent);background:var(--danger-soft)}
.flash.error strong{color:var(--danger)}
.flash.success{border-color:color-mix(in srgb,var(--success) 40%,transparent);background:var(--success-soft)}
.flash.success strong{color:var(--success)}
.flash.info{border-color:color-mix(in srgb,var(--accent) 35%,transparent);background:var(--accent-soft)}
.empty{text-align:center;padding:40px 20px}.empty .empty-icon{width:40px;height:40px;border-radius:10px;margin:0 auto 12px;
display:grid;place-items:center;background:var(--surface-2);color:var(--muted);font-size:18px}
.empty h3{margin-bottom:4px}.empty p{color:var(--muted);max-width:420px;margin:0 auto 14px}
.secret{display:flex;gap:8px;align-items:center}.secret input{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;
font-size:13px;background:var(--surface-2)}
.drop{border:2px dashed var(--border);border-radius:8px;padding:16px;text-align:center}.drop.over{border-color:var(--accent);background:var(--surface-2)}
.prompt,.prompt-excerpt{overflow-wrap:anywhere}.prompt{white-space:pre-wrap}
.stats{display:grid;grid-template-columns:repeat(auto-fit,minmax(180px,1fr));gap:16px;margin-bottom:20px}
.stat{background:var(--surface);border:1px solid var(--border);border-radius:var(--radius);padding:16px 18px;box-shadow:var(--shadow)}
.stat .label{color:var(--muted);font-weight:500;font-size:12.5px;margin:0}.stat .value{font-size:22px;font-weight:650;margin-top:4px}
.grid-2{display:grid;grid-template-columns:repeat(auto-fit,minmax(320px,1fr));gap:20px}.grid-2>.card{margin-bottom:0}
.stack>*+*{margin-top:20px}
.auth{min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;padding:40px 16px}
.auth .brand{margin-bottom:24px;font-size:17px}.auth main{width:100%;max-width:440px;background:var(--surface);
border:1px solid var(--border);border-radius:14px;box-shadow:var(--shadow);padding:28px}
.auth main h1{margin-bottom:8px}.auth main form{display:grid;gap:14px;margin-top:16px}.auth main button{width:100%}
.auth main .card{box-shadow:none}
.auth main:has(.consent){max-width:560px}.consent .eyebrow{font-size:12px;font-weight:600;letter-spacing:.06em;
text-transform:uppercase;color:var(--accent);margin:0 0 8px}.consent h1{font-size:20px;overflow-wrap:anywhere}
.consent dl.consent-facts{margin:16px 0;padding:12px 14px;border:1px solid var(--border);border-radius:8px;background:var(--surface-2)}
.consent-facts dd{overflow-wrap:anywhere;min-width:0}.auth main .consent-form{gap:20px;margin-top:20px}
.website-list{margin-top:12px;padding-left:12px;border-left:2px solid var(--border)}
form:has(input[name=websites][value=all]:checked) .website-list{display:none}
.consent-actions{display:grid;grid-template-columns:1fr 1fr;gap:10px}
pre.mail{white-space:pre-wrap;word-break:break-word;margin:0;font:12.5px/1.55 ui-monospace,SFMono-Regular,Menlo,monospace}
details.mail-item>summary{cursor:pointer;list-style:none}details.mail-item>summary::-webkit-details-marker{display:none}
dl.kv{display:grid;grid-template-columns:max-content 1fr;gap:8px 20px;margin:0}dl.kv dt{color:var(--muted)}dl.kv dd{margin:0}
.flash.warn{border-color:color-mix(in srgb,var(--warn) 40%,transparent);background:var(--warn-soft)}
.flash.warn strong{color:var(--warn)}
.crumbs{font-size:13px;color:var(--muted);margin-bottom:6px;overflow-wrap:anywhere}.crumbs a{color:var(--muted)}
h1 .badge{vertical-align:middle;margin-left:4px}.live-link{overflow-wrap:anywhere}
.tabs{display:flex;gap:4px;border-bottom:1px solid var(--border);margin:-8px 0 24px;overflow-x:auto;scrollbar-width:none}
.tabs a{padding:9px 12px;color:var(--muted);font-weight:550;border-bottom:2px solid transparent;white-space:nowrap}
.tabs a:hover{color:var(--text);text-decoration:none}.tabs a[aria-current=page]{color:var(--text);border-bottom-color:var(--accent)}
.stat .value.small-value{font-size:15px;font-weight:600;margin:6px 0 4px}
.file-list{list-style:none;margin:0 0 16px;padding:0;display:grid;gap:6px}.file-list code{overflow-wrap:anywhere}
pre.code{margin:0;padding:16px 20px;overflow:auto;max-height:75vh;background:var(--surface-2);tab-size:2;
font:12.5px/1.6 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.grid-sidebar{display:grid;grid-template-columns:minmax(0,1fr) 300px;gap:20px;align-items:start}.grid-sidebar>.card{margin-bottom:0}
label.check{display:flex;gap:8px;align-items:center;font-weight:550}label.check input{accent-color:var(--accent);margin:0}
.value-code{display:block;padding:8px 11px;border-radius:8px;background:var(--surface-2);overflow-wrap:anywhere}
.spaced{margin-top:14px}
@media (max-width:980px){.grid-sidebar{grid-template-columns:minmax(0,1fr)}}
@media (max-width:640px){.table-wrap table,.table-wrap tbody,.table-wrap tr,.table-wrap td{display:block;width:100%}
.table-wrap thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
.table-wrap tr{padding:12px 16px;border-bottom:1px solid var(--border)}.table-wrap tr:last-child{border-bottom:0}
.table-wrap td{padding:3px 0;border:0;overflow-wrap:anywhere}
.table-wrap td[data-label]{display:grid;grid-template-columns:84px minmax(0,1fr);gap:10px}
.table-wrap td[data-label]::before{content:attr(data-label);color:var(--muted);font-size:12.5px;padding-top:1px}
.table-wrap td[data-label=""],.table-wrap td:first-child{display:block;padding-bottom:6px}
.table-wrap td[data-label=""]::before,.table-wrap td:first-child::before{content:none}.table-wrap td.actions{text-align:left;white-space:normal;padding-top:8px}
.table-wrap td.actions form{margin:0 6px 0 0}.card-header{flex-wrap:wrap}.card-body{padding:16px}
.tabs{flex-wrap:wrap;border-bottom:0;margin:0 0 20px;overflow:visible}.tabs a{padding:6px 10px;border:0;border-radius:7px}
.tabs a[aria-current=page]{background:var(--accent-soft);color:var(--accent)}}
@media (max-width:860px){.shell{grid-template-columns:minmax(0,1fr);align-content:start}.sidebar{border-right:0;border-bottom:1px solid var(--border);
padding:8px 12px;overflow-x:auto}.sidebar .nav-section{display:flex;gap:4px;margin:0}.sidebar .nav-title{display:none}
.sidebar{display:flex;gap:4px}.nav a{white-space:nowrap}.content{padding:20px 16px 48px}
.page-header{flex-direction:column;align-items:flex-start}.topbar{padding:0 12px}.hide-sm{display:none}.truncate{max-width:52vw}.shell .brand-name,.topbar .brand-name{display:none}.topbar{gap:6px}}
`;
