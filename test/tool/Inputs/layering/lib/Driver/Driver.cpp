// "hpp-some-rule" in a comment is no use of it
void f() { g("hpp-some-rule"); g("hpp-not-a-rule"); }
