import { createUserCommand } from './createuser';
import type { Command } from './command';

export const createsuperuserCommand: Command = {
  name: 'createsuperuser',
  summary: 'Create a verified site administrator',
  usage: 'createsuperuser --email E --password P [--display-name N]',
  run: (args, context) => createUserCommand(args, context, true),
};
