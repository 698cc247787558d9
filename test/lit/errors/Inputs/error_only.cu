// Only a preprocessor error: nothing to analyze.
#error "this translation unit is not meant to be compiled"
