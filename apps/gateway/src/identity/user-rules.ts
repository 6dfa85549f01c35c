import { TEXT_LIMITS, lengthErrors } from '@gl/contracts';
import { ValidationErrors, nameErrors, namespacePathErrors } from './paths';

/** The e-mail format GitLab's User model accepts (a primary or a secondary address). */
export const EMAIL_FORMAT = /^[^@\s]+@[^@\s]+$/;

/** The user attributes POST /users and PUT /users/:id both validate, each only when given. */
export interface UserAttributes {
  email?: string;
  name?: string;
  username?: string;
  password?: string;
  bio?: string;
  projectsLimit?: number;
}

/**
 * GitLab's User validations (app/models/user.rb, user_detail.rb) on the attributes a request gives, in
 * the order GitLab reports them; creation gives email, name and username always, an edit any of them.
 */
export function userAttributeErrors(input: UserAttributes): ValidationErrors {
  const errors = new ValidationErrors();
  if (input.email !== undefined) errors.add('email', EMAIL_FORMAT.test(input.email) ? [] : ['is invalid']);
  if (input.name !== undefined) errors.add('name', nameErrors(input.name));
  if (input.username !== undefined) errors.add('username', namespacePathErrors(input.username));
  if (input.password !== undefined && input.password.length < TEXT_LIMITS.passwordMin) {
    errors.add('password', `is too short (minimum is ${TEXT_LIMITS.passwordMin} characters)`);
  }
  errors.add('password', lengthErrors(input.password, TEXT_LIMITS.passwordMax));
  errors.add('bio', lengthErrors(input.bio, TEXT_LIMITS.userBio));
  if (input.projectsLimit !== undefined && input.projectsLimit < 0) {
    errors.add('projects_limit', 'must be greater than or equal to 0');
  }
  return errors;
}
