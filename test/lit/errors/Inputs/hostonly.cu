// Only host code: nothing to analyze.
int add(int a, int b) { return a + b; }
