import { main } from './cli';

/** `npm run infra -- up|build`: the infrastructure alone, for running services by hand. */
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
