/* SPDX-License-Identifier: LGPL-3.0-or-later */
#include "check.h"
int main(void){return 0;}
