import { startE2eStack } from './run-setup';

/** Global setup of the `e2e` jest project: the whole stack, on infrastructure of its own. */
export default startE2eStack;
