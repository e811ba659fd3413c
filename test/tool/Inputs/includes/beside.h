// Beside main.cpp (test/tool/absolute-includes.test).
constexpr int Beside = 1;
