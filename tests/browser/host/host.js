// The test host page's script, bundled for the browser by harness.mjs: a
// minimal MCP Apps host built on ext-apps' own AppBridge. It loads the view
// into a sandboxed iframe (scripts only: an opaque origin, no access to
// this page) and answers the view's tools/call and resources/read through
// functions the Node test exposes (hostCallTool, hostReadResource), which
// read from the gateway.

import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

const hostInfo = { name: 'dagu-mcp-gateway-browser-test', version: '1.0.0' };

/**
 * Mounts the view at opts.viewUrl and hands it one tool call: its input
 * (opts.toolInput) and result (opts.toolResult). opts.hostContext is what
 * the host tells the view (theme, display mode, locale); with
 * opts.refuseTools the host declares no serverTools and refuses every
 * tools/call of the view.
 */
window.mountView = async (opts) => {
  const box = document.getElementById('frame-box');
  box.replaceChildren();
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.title = 'Dagu view';
  iframe.id = 'view';
  iframe.style.width = `${opts.width}px`;
  iframe.style.height = '120px';
  iframe.src = opts.viewUrl;
  const caps = opts.refuseTools ? { serverResources: {} } : { serverTools: {}, serverResources: {} };
  const bridge = new AppBridge(null, hostInfo, caps, { hostContext: opts.hostContext });
  bridge.oncalltool = async (params) => {
    if (opts.refuseTools) throw new Error('this host does not let views call tools');
    return window.hostCallTool(params);
  };
  bridge.onreadresource = async (params) => window.hostReadResource(params);
  bridge.onsizechange = ({ height }) => {
    if (height) iframe.style.height = `${Math.min(height, opts.maxHeight)}px`;
    window.viewHeight = height;
  };
  bridge.onrequestdisplaymode = async ({ mode }) => {
    iframe.style.width = mode === 'fullscreen' ? '100%' : `${opts.width}px`;
    bridge.sendHostContextChange({ displayMode: mode });
    return { mode };
  };
  const initialized = new Promise((resolve) => { bridge.oninitialized = resolve; });
  box.append(iframe);
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  await initialized;
  if (opts.toolInput) await bridge.sendToolInput({ arguments: opts.toolInput });
  await bridge.sendToolResult(opts.toolResult);
  window.viewBridge = bridge;
};

/** Tells the mounted view that the host's context changed (theme, display mode). */
window.changeContext = (ctx) => window.viewBridge.sendHostContextChange(ctx);
