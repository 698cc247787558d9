// Input of nvccdb/cmake-project.test: the target's C++ file, compiled by the
// host compiler (its command is exported unchanged).
int host_side() { return 0; }
