import { createUser } from '../services/users';
import { parseFlags, withDatabase, type Command, type CommandContext } from './command';

const FLAGS = {
  email: { required: true },
  password: { required: true },
  'display-name': { required: false },
} as const;

/** The shared body of createuser and createsuperuser, which differ only in the admin flag. */
export async function createUserCommand(
  args: string[],
  context: CommandContext,
  isAdmin: boolean,
): Promise<number> {
  const flags = parseFlags(args, FLAGS);
  const user = await withDatabase(context, (db) =>
    createUser(db, {
      email: flags.email,
      password: flags.password,
      displayName: flags['display-name'],
      isAdmin,
      // Made by whoever runs the server: there is no mailbox to prove.
      verified: true,
    }),
  );
  context.output.out(`Created ${isAdmin ? 'superuser' : 'user'} ${user.email}`);
  return 0;
}

export const createuserCommand: Command = {
  name: 'createuser',
  summary: 'Create a verified user account',
  usage: 'createuser --email E --password P [--display-name N]',
  run: (args, context) => createUserCommand(args, context, false),
};
