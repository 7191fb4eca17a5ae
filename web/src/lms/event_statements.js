// The xAPI statements the exercises' events carry (`attempt` and `progress` as detail.statement: the
// element's events, the iframe's messages, the widget): lms/xapi.js's "answered" and "completed"
// statements, about an anonymous learner. The playground never knows who is learning: a host that
// forwards a statement to a learning record store puts its own learner in `actor` (web/EMBED.md).

import { answeredStatement, completedStatement } from './xapi.js';

/**
 * The learner until a host says who it is: an account with no name of a person, on the site that shows the
 * playground (xAPI wants an account's homePage to be a web address: the page's origin, where it has one).
 */
export const anonymous = (where = globalThis.location) => ({ objectType: 'Agent',
  account: { homePage: /^https?:$/.test(where?.protocol ?? '') ? `${where.origin}/` : 'http://localhost/', name: 'anonymous' } });

const copy = () => anonymous();

/** The "answered" statement of an `attempt` detail (options: kind, prompt, durationMs, timestamp). */
export const attemptStatement = (detail, options) => answeredStatement(detail, { actor: copy(), ...options });

/** The "completed" statement of a `progress` detail whose exercises are all done, else null. */
export const completionStatement = (progress, options) => completedStatement(progress, { actor: copy(), ...options });
