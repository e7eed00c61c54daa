// Integration and end-to-end tests wait for states (a row, a log line, a delivered message), never
// for a time; this bound only stops a test that would hang. It is generous because a loaded 2-core
// CI machine runs several of these files at once.
jest.setTimeout(120_000);
