// Valid C++ that is not valid CUDA: a global named threadIdx clashes with the CUDA
// builtin. g++ accepts it; compiled as CUDA (as the tool does) it is an error.
int threadIdx = 0;
int main() { return threadIdx; }
