import 'server-only';
/** lib/admin: the operator commands the CLIs send to a running gateway (or run on its data directory). */
export { adminCommand, isCommandError, runAdminCommand, type AdminCommand } from './commands';
