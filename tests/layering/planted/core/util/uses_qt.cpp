// planted: core never includes Qt
#include <QString>
