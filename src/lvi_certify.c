/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* STUB: being written. */
#include "dvicert/dvicert.h"
