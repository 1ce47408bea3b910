import { parseArgs } from "node:util";
import { apiClient } from "./client.js";
import { diff, type ExitCode, type Output, pull, push, validate } from "./commands.js";

const usage = `seed: dashboards as files, over the Seed Charts REST API

  seed validate <file...>        check files against the format (no server needed)
  seed pull [slug...] [--dir D]  write each dashboard (all by default) to D/<slug>.yaml
  seed diff <file...>            show how files differ from the server (exit 1 if they do)
  seed push <file...>            create or update each file's dashboard (one version each)

The server and token come from the environment (a token never goes on a command line):
  SEED_URL    the app's address, e.g. https://charts.example.com
  SEED_TOKEN  a personal API token from /admin/tokens (read scope for pull and diff)`;

const output: Output = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

async function main(argv: readonly string[]): Promise<ExitCode> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: { dir: { type: "string", default: "." }, help: { type: "boolean", short: "h" } },
  });
  const [command, ...rest] = positionals;
  if (values.help || command === undefined || command === "help") {
    output.out(usage);
    return command === undefined && !values.help ? 2 : 0;
  }
  if (command === "validate")
    return rest.length > 0 ? validate(rest, output) : usageError("validate needs files");
  const url = process.env.SEED_URL;
  const token = process.env.SEED_TOKEN;
  if (!url || !token) return usageError("Set SEED_URL and SEED_TOKEN (see seed --help).");
  const client = apiClient(url, token);
  if (command === "pull") return pull(client, rest, values.dir ?? ".", output);
  if (rest.length === 0) return usageError(`${command} needs files`);
  if (command === "push") return push(client, rest, output);
  if (command === "diff") return diff(client, rest, output);
  return usageError(`Unknown command "${command}".`);
}

/** An error in words: a server that cannot be reached is named with the system's reason. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: string; message?: string } | undefined;
  const reason = cause?.code ?? cause?.message;
  if (error.message === "fetch failed" && reason) {
    return `cannot reach ${process.env.SEED_URL} (${reason}); check SEED_URL.`;
  }
  return error.message;
}

function usageError(message: string): ExitCode {
  output.err(message);
  output.err("Run seed --help for the commands.");
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    output.err(`seed: ${describe(error)}`);
    process.exitCode = 2;
  },
);
