import { startComponentInfra } from './run-setup';

/** Global setup of the `component` jest project: the database server and broker its tests share. */
export default startComponentInfra;
