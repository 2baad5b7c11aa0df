// Helpers of the interoperability test: build the gateway binary from this
// checkout, run `gateway demo` and read the URLs it prints.

import { spawn, execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The repository root: tests/interop/../.. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The environment for gateway processes: this process's, without any
 * DAGU_* or GATEWAY_* variable, so the developer's own settings cannot
 * change what is tested.
 */
export function cleanEnv(extra = {}) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('DAGU_') && !k.startsWith('GATEWAY_')) env[k] = v;
  }
  return { ...env, ...extra };
}

/** A random secret with a recognisable prefix. */
export function secret(prefix) {
  return prefix + randomBytes(16).toString('hex');
}

const run = promisify(execFile);

/**
 * Builds ./cmd/gateway into a temporary directory with `go build`, with the
 * race detector when cgo is available: .ci/run runs this test right after
 * `go test -race ./...`, so every package is already compiled that way (a
 * plain build would compile them all again), and the gateway then runs
 * instrumented under a real client. Returns the binary path and a cleanup
 * function. When INTEROP_GATEWAY_BIN names a binary (run.sh builds one for
 * all test files), that binary is used and the cleanup leaves it.
 */
export async function buildGateway() {
  const prebuilt = process.env.INTEROP_GATEWAY_BIN;
  if (prebuilt) return { bin: prebuilt, cleanup: async () => {} };
  const dir = await mkdtemp(path.join(tmpdir(), 'gateway-interop-'));
  const bin = path.join(dir, process.platform === 'win32' ? 'gateway.exe' : 'gateway');
  const opts = { cwd: repoRoot, env: cleanEnv(), maxBuffer: 16 << 20 };
  const { stdout: cgo } = await run('go', ['env', 'CGO_ENABLED'], opts);
  const race = cgo.trim() === '1' ? ['-race'] : [];
  await run('go', ['build', ...race, '-o', bin, './cmd/gateway'], opts);
  return { bin, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

const mcpLine = /MCP endpoint \(Streamable HTTP\):\s*(http:\/\/\S+\/mcp)/;
const daguLine = /Demo Dagu \(recorded data\):\s*(http:\/\/\S+)/;

/**
 * Starts `gateway demo --listen 127.0.0.1:0 --dagu-port 0` (free ports, so
 * that demos run side by side) with extra arguments and
 * environment (secrets go there, not on the command line) and resolves once
 * its banner names the MCP endpoint and the demo Dagu.
 * Returns { mcpUrl, daguUrl, stop }.
 */
export function startDemo(bin, args, { env = {}, timeoutMs = 15000 } = {}) {
  const child = spawn(bin, ['demo', '--listen', '127.0.0.1:0', '--dagu-port', '0', '--log-level', 'error', ...args], {
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`gateway demo printed no banner within ${timeoutMs} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, timeoutMs);
    child.stderr.on('data', (b) => { stderr += b; });
    child.stdout.on('data', (b) => {
      stdout += b;
      const mcp = stdout.match(mcpLine);
      const dagu = stdout.match(daguLine);
      if (mcp && dagu) {
        clearTimeout(timer);
        resolve({ mcpUrl: mcp[1], daguUrl: dagu[1], stop });
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`gateway demo exited (${code ?? signal}) before its banner\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    });
  });
}
