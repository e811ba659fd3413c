// Below main.cpp's directory (test/tool/absolute-includes.test).
constexpr int Nested = 2;
