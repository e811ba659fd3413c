// Hand-written, compiled by the project, not a dialect source: hpp-rewrite
// must never replace it (test/tool/output-ownership.test).
int tasks() { return 42; }
