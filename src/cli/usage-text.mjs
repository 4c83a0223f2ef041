/**
 * The `pagegrade` command's usage text. Plain JavaScript, so that bin/pagegrade.js prints it for `pagegrade help`
 * without starting the TypeScript loader (usage-text.d.mts gives its type to the TypeScript sources).
 */
export const usage = `Usage:
  pagegrade analyze <url> [--mode raw|rendered] [--json] [--baseline <report.json>] [--budget <budget.json>] [--junit <out.xml>]
  pagegrade analyze --file <urls.txt> [--mode raw|rendered] [--concurrency N] [--json-lines <out.jsonl|->]
  pagegrade crawl <url> [--max-pages N] [--max-depth N] [--include P]... [--exclude P]... [--no-sitemaps]
                  [--concurrency N] [--json-lines <out.jsonl|->] [--csv <dir>]
                  [--header "Name: value"]...
                  [--json <crawl.json>] [--baseline <crawl.json>] [--budget <budget.json>] [--junit <out.xml>]
                  [--fail-on high|medium|low]
  pagegrade crawl --file <urls.txt> [--extract <rules.json text>] [options of crawl <url>]
  pagegrade user create --email <e> [--password <p>]
  pagegrade user reset-password --email <e> [--password-stdin]   (prints a new random password unless read from stdin)
  pagegrade user list
  pagegrade user disable|enable --email <e>   (a disabled user's keys and sessions stop working at once)
  pagegrade key create --email <e> [--keep-old]
  pagegrade team create --name <n> --owner <e>
  pagegrade team list [--email <e>]           (every team, or one user's teams with their role)
  pagegrade backup <file> [--force]      (a consistent copy of the SQLite database, while the service runs)
  pagegrade migrate --to <postgres://…> [--from <sqlite file>]   (copies it into an empty PostgreSQL database)
  pagegrade worker          (runs jobs only; needs PAGEGRADE_QUEUE_URL and a PostgreSQL DATABASE_URL)
  pagegrade help

Environment: see the README (PAGEGRADE_* settings).`;

/** The arguments that ask for the usage text: none (exit 2), `help`, `--help` or `-h` (exit 0). */
export const helpArguments = [undefined, "help", "--help", "-h"];
