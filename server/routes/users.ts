import { requestOrigin } from '../origin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { User } from '../db/schema';
import { requireUser } from '../auth/plugin';
import { burnPasswordCheck, verifyPassword } from '../auth/passwords';
import { SESSION_COOKIE, deleteOtherSessions, deleteSession } from '../auth/sessions';
import {
  ApiError,
  permissionDenied,
  throttled,
  validationError,
  validationErrors,
  type ErrorItem,
} from '../errors';
import type { MailMessage } from '../mail';
import {
  checkPasswordResetToken,
  checkVerifyEmailToken,
  clearLoginFailures,
  createUser,
  displayNameField,
  emailField,
  findUserByEmail,
  findUserByUid,
  loginBackoffSeconds,
  passwordField,
  passwordProblems,
  passwordResetMail,
  recordLoginFailure,
  serializeUser,
  setPassword,
  updateUser,
  verificationMail,
} from '../services/users';
import { parse } from '../validation';
import { emptyObject, errors, noContent, user as userSchema } from '../openapi/schemas';

const LOGIN_FAILED = 'Unable to log in with provided credentials.';
const BAD_RESET_LINK = 'The password reset link is invalid or has expired.';
const BAD_VERIFY_LINK = 'The verification link is invalid or has expired.';

const signupBody = z.object({
  email: emailField,
  password: passwordField,
  display_name: displayNameField,
});

// Any string is accepted at login: a malformed e-mail simply matches no account.
const loginBody = z.object({
  email: z.string().trim().min(1).max(254),
  password: passwordField,
});

const updateBody = z.object({
  display_name: displayNameField.optional(),
  password: passwordField.optional(),
  current_password: z.string().max(4096).optional(),
});

const resetBody = z.object({ email: emailField });

const resetConfirmBody = z.object({
  uidb64: z.string().max(200),
  token: z.string().max(200),
  password: passwordField,
});

const verifyBody = z.object({
  uidb64: z.string().max(200),
  token: z.string().max(200),
});

const tags = ['users'];
const retrieveUser = {
  operationId: 'RetrieveUser',
  tags,
  response: { 200: userSchema, ...errors(401) },
};
const updateUserSchema = {
  operationId: 'PartialUpdateUser',
  tags,
  body: updateBody,
  response: { 200: userSchema, ...errors(400, 401, 429) },
};
const logout = {
  operationId: 'Logout',
  tags,
  response: { 204: noContent, ...errors(401) },
};
const register = {
  operationId: 'Register',
  tags,
  security: [],
  body: signupBody,
  response: { 201: userSchema, ...errors(400, 403) },
};
const login = {
  operationId: 'Login',
  tags,
  security: [],
  body: loginBody,
  response: { 200: userSchema, ...errors(400, 429) },
};
const resetPassword = {
  operationId: 'ResetPassword',
  tags,
  security: [],
  body: resetBody,
  response: { 201: emptyObject, ...errors(400) },
};
const confirmReset = {
  operationId: 'PasswordResetConfirm',
  tags,
  security: [],
  body: resetConfirmBody,
  response: { 200: emptyObject, ...errors(400) },
};
const verifyEmail = {
  operationId: 'VerifyEmail',
  tags,
  security: [],
  body: verifyBody,
  response: { 200: userSchema, ...errors(400) },
};
const sendVerification = {
  operationId: 'SendVerificationEmail',
  tags,
  response: { 201: emptyObject, ...errors(400, 401) },
};

function alreadyVerified(): ApiError {
  return validationError(null, 'Your email address is already verified.', 'already_verified');
}

/** User calls: profile, session login and logout, sign-up, password reset, e-mail verification. */
export async function userRoutes(app: FastifyInstance): Promise<void> {
  const userBody = (user: User) => serializeUser(user, app.config.features);

  // A mail that cannot leave must not undo what the request did: log it, the user can retry.
  async function sendMail(request: FastifyRequest, message: MailMessage): Promise<void> {
    try {
      await app.mailer.send(message);
    } catch (error) {
      request.log.error({ err: error }, `could not send "${message.subject}" to ${message.to}`);
    }
  }

  /** Logs a user in on this browser, retiring the session cookie it came with. */
  async function logIn(request: FastifyRequest, reply: FastifyReply, user: User): Promise<void> {
    const previous = request.cookies[SESSION_COOKIE];
    if (previous) await deleteSession(app.db, previous);
    await app.startSession(reply, user);
  }

  app.get('/user/', { schema: retrieveUser }, async (request) => userBody(requireUser(request)));

  app.patch('/user/', { schema: updateUserSchema }, async (request) => {
    const user = requireUser(request);
    const body = parse(updateBody, request.body);
    if (body.password !== undefined) {
      const errors: ErrorItem[] = [];
      if (user.password_hash !== null) {
        if (!body.current_password) {
          errors.push({
            code: 'required',
            detail: 'This field is required.',
            attr: 'current_password',
          });
        } else {
          // Guessing the password through a stolen session is throttled like a login.
          const wait = await loginBackoffSeconds(app.db, user.email, request.ip);
          if (wait > 0) throw throttled(wait);
          if (!(await verifyPassword(body.current_password, user.password_hash))) {
            await recordLoginFailure(app.db, user.email, request.ip);
            errors.push({
              code: 'invalid',
              detail: 'Your current password is incorrect.',
              attr: 'current_password',
            });
          }
        }
      }
      errors.push(...passwordProblems(body.password, user.email));
      if (errors.length) throw validationErrors(errors);
    }

    let updated = user;
    if (body.display_name !== undefined) {
      updated = await updateUser(app.db, user.id, { display_name: body.display_name });
    }
    if (body.password !== undefined) {
      updated = await setPassword(app.db, user.id, body.password);
      const current = request.authMethod === 'session' ? request.cookies[SESSION_COOKIE] : null;
      await deleteOtherSessions(app.db, user.id, current ?? null);
    }
    return userBody(updated);
  });

  app.delete('/user/', { schema: logout }, async (request, reply) => {
    requireUser(request);
    await app.endSession(request, reply);
    return reply.status(204).send();
  });

  app.post('/user/new/', { schema: register }, async (request, reply) => {
    if (!app.config.features.signup) {
      throw permissionDenied('Registration is disabled on this server.');
    }
    const body = parse(signupBody, request.body);
    const user = await createUser(app.db, {
      email: body.email,
      password: body.password,
      displayName: body.display_name,
    });
    await logIn(request, reply, user);
    await sendMail(request, verificationMail(app.secretKey, requestOrigin(request), user));
    return reply.status(201).send(userBody(user));
  });

  app.post('/user/login/', { schema: login }, async (request, reply) => {
    const body = parse(loginBody, request.body);
    const wait = await loginBackoffSeconds(app.db, body.email, request.ip);
    if (wait > 0) throw throttled(wait);

    const user = await findUserByEmail(app.db, body.email);
    let valid = false;
    if (user?.password_hash) valid = await verifyPassword(body.password, user.password_hash);
    // Unknown e-mails and accounts without a password cost the same time as a wrong password.
    else await burnPasswordCheck(body.password);
    // A deactivated account answers as a wrong password does, as Django's backend treats it.
    if (!user || !valid || !user.is_active) {
      await recordLoginFailure(app.db, body.email, request.ip);
      throw new ApiError(400, 'validation_error', [
        { code: 'authorization', detail: LOGIN_FAILED, attr: 'non_field_errors' },
      ]);
    }

    await clearLoginFailures(app.db, user.email);
    const loggedIn = await updateUser(app.db, user.id, { last_login: new Date().toISOString() });
    await logIn(request, reply, loggedIn);
    return userBody(loggedIn);
  });

  app.post('/user/password-reset/', { schema: resetPassword }, async (request, reply) => {
    const body = parse(resetBody, request.body);
    const user = await findUserByEmail(app.db, body.email);
    if (user?.is_active) {
      // Not awaited: a slow SMTP server would otherwise tell which e-mails have an account.
      void sendMail(request, passwordResetMail(app.secretKey, requestOrigin(request), user));
    }
    return reply.status(201).send({});
  });

  app.post('/user/password-reset/confirm/', { schema: confirmReset }, async (request) => {
    const body = parse(resetConfirmBody, request.body);
    const user = await findUserByUid(app.db, body.uidb64);
    if (!user || !checkPasswordResetToken(app.secretKey, user, body.token)) {
      throw validationError('token', BAD_RESET_LINK);
    }
    const problems = passwordProblems(body.password, user.email);
    if (problems.length) throw validationErrors(problems);
    await setPassword(app.db, user.id, body.password);
    // Whoever knew the old password is logged out everywhere; the owner proved the mailbox.
    await deleteOtherSessions(app.db, user.id, null);
    await clearLoginFailures(app.db, user.email);
    return {};
  });

  app.post('/user/verify-email/', { schema: verifyEmail }, async (request) => {
    const body = parse(verifyBody, request.body);
    const user = await findUserByUid(app.db, body.uidb64);
    if (user?.verified_email) throw alreadyVerified();
    if (!user || !checkVerifyEmailToken(app.secretKey, user, body.token)) {
      throw validationError('token', BAD_VERIFY_LINK);
    }
    const verified = await updateUser(app.db, user.id, { verified_email: 1 });
    // The link may be opened in a browser logged out, or as someone else: no API token then.
    const withToken = request.user?.id === user.id;
    return serializeUser(verified, app.config.features, { withToken });
  });

  app.post('/user/verify-email/send/', { schema: sendVerification }, async (request, reply) => {
    const user = requireUser(request);
    if (user.verified_email) throw alreadyVerified();
    await sendMail(request, verificationMail(app.secretKey, requestOrigin(request), user));
    return reply.status(201).send({});
  });
}
