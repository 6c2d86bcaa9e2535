// not a target (no writer_backend_entry): "writer" is not checked
const char* w = "writer";
