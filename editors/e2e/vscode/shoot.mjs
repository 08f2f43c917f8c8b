// shoot.mjs CHROME_PROFILE REQUEST_DIR PNG_DIR PAGE_URL_PREFIX: takes the
// VS Code e2e's screenshots through the headless browser's DevTools
// protocol, on request of the extension's driver (editors/vscode/src/e2e.ts).
// Node 24 built-ins only (fetch, WebSocket, zlib).
//
// The driver writes REQUEST_DIR/NAME.request.json:
//   {"name": "hover", "deadline_ms": 20000,
//    "wait": [{"selector": ".monaco-hover", "min": 1, "texts": ["bare except"]}]}
// This script waits until every condition holds in the workbench page (at
// least min (default 1) and at most max visible elements match selector,
// and their text holds every text, each of once exactly once and the texts
// of order in that order; with fits, no element's content is cut off
// (scrollHeight within clientHeight)), captures the page (Page.captureScreenshot), checks that the PNG is
// not blank (decoded: enough distinct colours, no colour covering nearly
// every pixel), writes PNG_DIR/NAME.png and then REQUEST_DIR/NAME.result.json
// {"ok": bool, "detail": "..."}. A request whose conditions never hold is
// still captured (for debugging) but answered ok: false. Runs until killed.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const [profile, reqDir, pngDir, pagePrefix] = process.argv.slice(2);
if (!pagePrefix) {
  console.error('usage: shoot.mjs CHROME_PROFILE REQUEST_DIR PNG_DIR PAGE_URL_PREFIX');
  process.exit(2);
}
const log = (...a) => console.log(new Date().toISOString(), ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** devtools connects to the workbench page's DevTools WebSocket. */
async function devtools() {
  // --remote-debugging-port=0 makes the browser write its port here.
  const portFile = path.join(profile, 'DevToolsActivePort');
  for (;;) {
    try {
      const port = fs.readFileSync(portFile, 'utf8').split('\n')[0].trim();
      if (port) {
        const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
        const page = targets.find((t) => t.type === 'page' && t.url.startsWith(pagePrefix));
        if (page) {
          return await connect(page.webSocketDebuggerUrl);
        }
      }
    } catch {
      // Not up yet.
    }
    await sleep(200);
  }
}

async function connect(url) {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = () => reject(new Error(`cannot connect to ${url}`));
  });
  let next = 0;
  const pending = new Map();
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    const p = pending.get(msg.id);
    if (p) {
      pending.delete(msg.id);
      msg.error ? p.reject(new Error(`${p.method}: ${msg.error.message}`)) : p.resolve(msg.result);
    }
  };
  ws.onclose = () => {
    log('DevTools connection closed');
    process.exit(1);
  };
  return (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      pending.set(id, { resolve, reject, method });
      ws.send(JSON.stringify({ id, method, params }));
    });
}

// Runs in the page: which conditions do not hold yet.
function unmet(wait) {
  const visible = (e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
  };
  const out = [];
  for (const w of wait) {
    const els = [...document.querySelectorAll(w.selector)].filter(visible);
    const text = els.map((e) => e.innerText || e.textContent || '').join('\n');
    if (els.length < (w.min ?? 1)) {
      out.push(`${els.length} visible ${w.selector}, want at least ${w.min ?? 1}`);
    }
    if (w.max !== undefined && els.length > w.max) {
      out.push(`${els.length} visible ${w.selector}, want at most ${w.max}`);
    }
    for (const t of w.texts ?? []) {
      if (!text.includes(t)) {
        out.push(`${w.selector} does not show "${t}"`);
      }
    }
    for (const t of w.once ?? []) {
      const n = text.split(t).length - 1;
      if (n !== 1) {
        out.push(`${w.selector} shows "${t}" ${n} times, want once`);
      }
    }
    let at = -1;
    for (const t of w.order ?? []) {
      const i = text.indexOf(t, at + 1);
      if (i < 0) {
        out.push(`${w.selector} does not show "${t}" after what comes before it in ${JSON.stringify(w.order)}: ${JSON.stringify(text)}`);
        break;
      }
      at = i;
    }
    if (w.fits) {
      for (const e of els) {
        if (e.scrollHeight > e.clientHeight + 1) {
          out.push(`${w.selector} is cut off: ${e.scrollHeight} px of content in ${e.clientHeight} px`);
        }
      }
    }
  }
  return out;
}

async function evaluate(send, fn, arg) {
  const r = await send('Runtime.evaluate', { expression: `(${fn})(${JSON.stringify(arg)})`, returnByValue: true });
  if (r.exceptionDetails) {
    throw new Error(`page: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
  }
  return r.result.value;
}

/** blankness decodes an 8-bit RGB(A) PNG and says why it looks blank, or ''. */
function blankness(png) {
  if (png.length < 8 || png.readUInt32BE(0) !== 0x89504e47) {
    return 'not a PNG';
  }
  let off = 8;
  let width = 0;
  let height = 0;
  let bpp = 0;
  const idat = [];
  while (off + 8 <= png.length) {
    const len = png.readUInt32BE(off);
    const type = png.toString('latin1', off + 4, off + 8);
    const data = png.subarray(off + 8, off + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const [depth, colour, , , interlace] = data.subarray(8, 13);
      if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0) {
        return `unexpected PNG format (depth ${depth}, colour type ${colour}, interlace ${interlace})`;
      }
      bpp = colour === 6 ? 4 : 3;
    } else if (type === 'IDAT') {
      idat.push(data);
    }
    off += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * bpp;
  const prev = Buffer.alloc(stride);
  const cur = Buffer.alloc(stride);
  const counts = new Map();
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? cur[i - bpp] : 0;
      const b = prev[i];
      const c = i >= bpp ? prev[i - bpp] : 0;
      let p = 0;
      if (f === 1) p = a;
      else if (f === 2) p = b;
      else if (f === 3) p = (a + b) >> 1;
      else if (f === 4) {
        const pa = Math.abs(b - c);
        const pb = Math.abs(a - c);
        const pc = Math.abs(a + b - 2 * c);
        p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      cur[i] = (line[i] + p) & 0xff;
    }
    for (let x = 0; x < width; x++) {
      const k = (cur[x * bpp] << 16) | (cur[x * bpp + 1] << 8) | cur[x * bpp + 2];
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    cur.copy(prev);
  }
  const top = Math.max(...counts.values());
  if (counts.size < 16 || top > 0.98 * width * height) {
    return `blank: ${counts.size} colours, the commonest on ${((100 * top) / (width * height)).toFixed(1)}% of ${width}x${height} pixels`;
  }
  return '';
}

async function serve(send, file) {
  const req = JSON.parse(fs.readFileSync(path.join(reqDir, file), 'utf8'));
  const name = req.name;
  const deadline = Date.now() + (req.deadline_ms ?? 20000);
  let missing = [];
  for (;;) {
    missing = await evaluate(send, unmet, req.wait ?? []);
    if (missing.length === 0 || Date.now() >= deadline) {
      break;
    }
    await sleep(100);
  }
  // Let the last frame paint (hover fade-in, tree rows).
  await sleep(400);
  const shot = Buffer.from((await send('Page.captureScreenshot', { format: 'png' })).data, 'base64');
  const png = path.join(pngDir, `${name}.png`);
  fs.writeFileSync(`${png}.tmp`, shot);
  fs.renameSync(`${png}.tmp`, png);
  const blank = blankness(shot);
  const { cssVisualViewport: vp } = await send('Page.getLayoutMetrics');
  const size = `${Math.round(vp.clientWidth)}x${Math.round(vp.clientHeight)}`;
  const ok = missing.length === 0 && blank === '';
  const detail = missing.length ? `the page never showed it: ${missing.join('; ')}` : blank || `${png}, ${size}, ${shot.length} bytes`;
  fs.writeFileSync(path.join(reqDir, `${name}.result.json.tmp`), JSON.stringify({ ok, detail }));
  fs.renameSync(path.join(reqDir, `${name}.result.json.tmp`), path.join(reqDir, `${name}.result.json`));
  log(`${name}: ${ok ? 'ok' : 'FAILED'}: ${detail}`);
}

const send = await devtools();
log('connected to the workbench page');
await send('Page.enable');
const done = new Set();
for (;;) {
  for (const f of fs.readdirSync(reqDir)) {
    if (f.endsWith('.request.json') && !done.has(f)) {
      done.add(f);
      await serve(send, f).catch((e) => {
        log(`${f}: ${e.message}`);
        const name = f.replace(/\.request\.json$/, '');
        fs.writeFileSync(path.join(reqDir, `${name}.result.json`), JSON.stringify({ ok: false, detail: `shoot.mjs: ${e.message}` }));
      });
    }
  }
  await sleep(100);
}
