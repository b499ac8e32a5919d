#!/usr/bin/env node
import "../dist/termchat.js";
