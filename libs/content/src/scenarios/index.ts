export * from './scenario.schema';
export * from './scenarios.data';
export * from './scenario-lab';
export * from './scenario-grader';
