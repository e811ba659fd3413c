// Included by -include (test/tool/parse-flags.test).
#define FORCED 1
