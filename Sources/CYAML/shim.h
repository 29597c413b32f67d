#ifndef LAUNCHPOLICY_CYAML_SHIM_H
#define LAUNCHPOLICY_CYAML_SHIM_H
#include <yaml.h>
#endif
