// Input of nvccdb/response-files.test, found only through the -I of a
// nested response file.
constexpr float kBias = 1.0f;
