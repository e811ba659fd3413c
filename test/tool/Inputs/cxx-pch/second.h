// Shared by second.cpp and second-main.cpp (test/tool/cxx-pch.test).
#pragma once
int twice(hpp::Pointer<int> out, int n);
