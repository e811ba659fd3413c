// Found through -I (test/tool/absolute-includes.test).
constexpr int Elsewhere = 4;
