// Input of nvccdb/response-files.test, found only through
// -Xcompiler=-isystem,DIR.
#define HSTRIDE 8
