/** What a load got back: requests that failed without an answer (connection errors, timeouts), answers by status. */
export interface Answers {
  failed: number;
  statuses: Record<string, number>;
}

/** Thrown when a load was not answered as expected: `npm run bench` prints it and exits non-zero. */
export class UnexpectedAnswers extends Error {}

/**
 * Stops the bench unless every request of the load `what` was answered with a 2xx: a load refused in part (a 429 of
 * a rate limit the bench did not lift, a 4xx of a request it built wrong, a 5xx) would time how fast the service says
 * no, and its figures would look like the service's.
 */
export function expectAnswered(what: string, answers: Answers): void {
  const unexpected = Object.entries(answers.statuses)
    .filter(([status, count]) => count > 0 && !status.startsWith("2"))
    .sort(([a], [b]) => Number(a) - Number(b));
  if (answers.failed === 0 && unexpected.length === 0) return;
  const total = answers.failed + Object.values(answers.statuses).reduce((sum, count) => sum + count, 0);
  const parts = [
    ...unexpected.map(([status, count]) => `${count.toLocaleString("en-US")} answered ${status}`),
    ...(answers.failed > 0 ? [`${answers.failed.toLocaleString("en-US")} failed without an answer`] : []),
  ];
  throw new UnexpectedAnswers(
    `${what}: of ${total.toLocaleString("en-US")} requests, ${parts.join(", ")}; every request must be answered with a 2xx, ` +
      "or the figures would measure refusals (a rate limit the bench must lift in bench/lib/service.ts, or a request it builds wrong)",
  );
}

/** `response`, once it is a 2xx: a single request of a suite (a wait, a sample, a scrape) fails as a load does. */
export async function expectOk(what: string, response: Response): Promise<Response> {
  if (response.ok) return response;
  throw new UnexpectedAnswers(`${what}: answered ${response.status} ${await response.text()}; it must be answered with a 2xx`);
}
