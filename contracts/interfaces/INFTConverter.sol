// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IERC721Receiver} from "@openzeppelin/contracts/token/ERC721/IERC721Receiver.sol";

/// @title NFT converter: exchanges a token of the Alice ERC-721 for its paired token of the Bob ERC-721.
/// @notice Successor of MCH+'s `ERC721Converter`. Its user-facing ABI (`convertFromAliceToBob`,
/// `convertFromBobToAlice`, `getBobTokenID`, `getAliceTokenID`, `draftAliceTokens`, `draftBobTokens`,
/// `draftAliceToken`, `draftBobToken`, `aliceContract`, `bobContract`, `isOperator`, `addOperator`,
/// `removeOperator`, `paused`, `pause`, `unpause`) is kept so existing integrations and scripts keep working.
///
/// Conversion in one transaction, no approval: `alice.safeTransferFrom(you, converter, aliceId)` sends
/// the paired Bob token back to you (and the same from Bob to Alice while reverse conversion is on).
///
/// Stock: the converter converts in the direction whose counterpart it holds. Operators stock it by
/// `safeTransferFrom(operator, converter, id, data)` with non-empty `data` (empty data means "convert"),
/// or in bulk with {stock} after `setApprovalForAll`.
interface INFTConverter is IERC721Receiver {
    // ---------------------------------------------------------------- errors

    /// @dev `aliceIds` and `bobIds` differ in length.
    error LengthMismatch(uint256 aliceLength, uint256 bobLength);
    /// @dev A batch with no ids.
    error EmptyBatch();
    /// @dev The Alice id is already paired.
    error AliceAlreadyPaired(uint256 aliceId);
    /// @dev The Bob id is already paired.
    error BobAlreadyPaired(uint256 bobId);
    /// @dev The Alice id is not paired.
    error AliceNotPaired(uint256 aliceId);
    /// @dev The Bob id is not paired.
    error BobNotPaired(uint256 bobId);
    /// @dev `type(uint256).max` is the one id that cannot be paired (pairs are stored as id + 1 so that 0 can mean "none").
    error UnsupportedTokenId(uint256 id);
    /// @dev A token arrived by `safeTransferFrom` from a contract that is neither Alice nor Bob, or a
    /// function was given a token contract it does not accept.
    error UnsupportedToken(address token);
    /// @dev The converter does not hold the counterpart token.
    error OutOfStock(address token, uint256 id);
    /// @dev Bob → Alice conversion is switched off.
    error ReverseConversionDisabled();
    /// @dev The token is stock of a registered pair: unregister the pair first.
    error TokenOfRegisteredPair(address token, uint256 id);
    /// @dev The pair has been converted (the converter holds its Alice token): it can no longer be unregistered.
    error PairConverted(uint256 aliceId, uint256 bobId);
    /// @dev A token arrived with non-empty data (a stock deposit) from an account without the operator role.
    error NotOperator(address account);
    /// @dev Alice and Bob must be two different, non-zero contracts.
    error InvalidTokens(address alice, address bob);
    /// @dev The converter is paused.
    error EnforcedPause();
    /// @dev The converter is not paused.
    error ExpectedPause();

    // ---------------------------------------------------------------- events

    /// @notice A pair was registered.
    /// @param aliceId The Alice side of the pair.
    /// @param bobId The Bob side of the pair.
    event PairRegistered(uint256 indexed aliceId, uint256 indexed bobId);
    /// @notice A pair was unregistered.
    /// @param aliceId The Alice side of the pair.
    /// @param bobId The Bob side of the pair.
    event PairUnregistered(uint256 indexed aliceId, uint256 indexed bobId);
    /// @notice `owner` gave Alice `aliceId` and received Bob `bobId`.
    /// @param owner The account that converted.
    /// @param aliceId The Alice token it gave.
    /// @param bobId The Bob token it received.
    event ConvertedAliceToBob(address indexed owner, uint256 indexed aliceId, uint256 indexed bobId);
    /// @notice `owner` gave Bob `bobId` and received Alice `aliceId`.
    /// @param owner The account that converted.
    /// @param bobId The Bob token it gave.
    /// @param aliceId The Alice token it received.
    event ConvertedBobToAlice(address indexed owner, uint256 indexed bobId, uint256 indexed aliceId);
    /// @notice An operator took stock of an unregistered pair out of the converter.
    /// @param token The token contract (Alice or Bob).
    /// @param id The token withdrawn.
    /// @param to Its recipient.
    event StockWithdrawn(address indexed token, uint256 indexed id, address indexed to);
    /// @notice The admin recovered a token that was not stock of a registered pair (e.g. sent by plain `transferFrom`).
    /// @param token The token contract.
    /// @param id The token recovered.
    /// @param to Its recipient.
    event TokenRecovered(address indexed token, uint256 indexed id, address indexed to);
    // Not indexed: a bool topic filters nothing worth a topic.
    /// @notice Bob → Alice conversion was switched on or off.
    /// @param enabled Whether it is now on.
    event ReverseConversionSet(bool enabled); // solhint-disable-line gas-indexed-events
    // Not indexed: Paused and Unpaused are OpenZeppelin Pausable's events, with the signature the predecessor emits.
    /// @notice Conversions were stopped by `account`.
    /// @param account The operator that paused.
    event Paused(address account); // solhint-disable-line gas-indexed-events
    /// @notice Conversions were resumed by `account`.
    /// @param account The operator that unpaused.
    event Unpaused(address account); // solhint-disable-line gas-indexed-events
    /// @notice `account` was given the operator role through {addOperator} (predecessor ABI; `RoleGranted` is
    /// emitted too, as for every grant).
    /// @param account The new operator.
    event OperatorAdded(address indexed account);
    /// @notice `account` lost the operator role through {removeOperator} (predecessor ABI; `RoleRevoked` too).
    /// @param account The former operator.
    event OperatorRemoved(address indexed account);

    // ---------------------------------------------------------------- configuration

    /// @notice The role that registers and unregisters pairs, stocks and withdraws, pauses and unpauses.
    /// @return The role's identifier, `keccak256("OPERATOR_ROLE")`.
    function OPERATOR_ROLE() external view returns (bytes32);

    /// @notice The Alice token (immutable).
    /// @return The Alice contract.
    function alice() external view returns (IERC721);

    /// @notice The Bob token (immutable).
    /// @return The Bob contract.
    function bob() external view returns (IERC721);

    /// @notice The Alice token's address (predecessor ABI).
    /// @return The address of {alice}.
    function aliceContract() external view returns (address);

    /// @notice The Bob token's address (predecessor ABI).
    /// @return The address of {bob}.
    function bobContract() external view returns (address);

    /// @notice Whether Bob → Alice conversion is allowed (on at deployment).
    /// @return True while it is on.
    function reverseConversionEnabled() external view returns (bool);

    /// @notice Switches Bob → Alice conversion on or off (admin only), e.g. off for a one-way migration.
    /// @param enabled True to allow it, false to refuse it.
    function setReverseConversion(bool enabled) external;

    /// @notice Whether conversions are stopped.
    /// @return True while paused.
    function paused() external view returns (bool);

    /// @notice Stops conversions (operators).
    function pause() external;

    /// @notice Resumes conversions (operators).
    function unpause() external;

    // ---------------------------------------------------------------- operators (predecessor ABI)

    /// @notice Whether `account` holds the operator role.
    /// @param account The account asked about.
    /// @return Whether it is an operator.
    function isOperator(address account) external view returns (bool);

    /// @notice Grants the operator role to `account` (admin only, as `grantRole(OPERATOR_ROLE, account)`); emits
    /// {OperatorAdded} when `account` was not an operator, and does nothing otherwise.
    /// @param account The new operator.
    function addOperator(address account) external;

    /// @notice Revokes the operator role of `account` (admin only, as `revokeRole(OPERATOR_ROLE, account)`); emits
    /// {OperatorRemoved} when `account` was an operator, and does nothing otherwise.
    /// @param account The operator to remove.
    function removeOperator(address account) external;

    // ---------------------------------------------------------------- pairs

    /// @notice Registers pairs `aliceIds[i]` ↔ `bobIds[i]` (operators). Any id but `type(uint256).max`, 0 included.
    /// Reverts with {EmptyBatch}, {LengthMismatch}, {AliceAlreadyPaired} or {BobAlreadyPaired} (also for a
    /// duplicate inside the batch); nothing is registered when it reverts.
    /// @param aliceIds The Alice side of each pair.
    /// @param bobIds The Bob side of each pair.
    function registerPairs(uint256[] calldata aliceIds, uint256[] calldata bobIds) external;

    /// @notice Same as {registerPairs} (predecessor ABI).
    /// @param aliceIds The Alice side of each pair.
    /// @param bobIds The Bob side of each pair.
    function draftAliceTokens(uint256[] calldata aliceIds, uint256[] calldata bobIds) external;

    /// @notice Same as {registerPairs} with the arrays the other way round: Bob ids first (predecessor ABI).
    /// Unlike the predecessor, the converter need not hold the Bob tokens yet (stock can come later).
    /// @param bobIds The Bob side of each pair.
    /// @param aliceIds The Alice side of each pair.
    function draftBobTokens(uint256[] calldata bobIds, uint256[] calldata aliceIds) external;

    /// @notice Registers the one pair `aliceId` ↔ `bobId` (operators), with the rules of {registerPairs}
    /// (predecessor ABI). Unlike the predecessor, the converter need not hold the Alice token.
    /// @param aliceId The Alice side of the pair.
    /// @param bobId The Bob side of the pair.
    function draftAliceToken(uint256 aliceId, uint256 bobId) external;

    /// @notice Registers the one pair `bobId` ↔ `aliceId`, Bob id first (operators), with the rules of
    /// {registerPairs} (predecessor ABI). Unlike the predecessor, the converter need not hold the Bob token yet.
    /// @param bobId The Bob side of the pair.
    /// @param aliceId The Alice side of the pair.
    function draftBobToken(uint256 bobId, uint256 aliceId) external;

    /// @notice Unregisters the pairs of `aliceIds` (operators). Reverts with {AliceNotPaired} for an unpaired id
    /// and {PairConverted} for a pair whose Alice token the converter holds.
    /// @param aliceIds The Alice side of each pair to unregister.
    function unregisterPairs(uint256[] calldata aliceIds) external;

    /// @notice The Bob id paired with `aliceId`, or 0 when none (predecessor ABI: 0 is ambiguous, see {bobIdOf}).
    /// @param aliceId The Alice id asked about.
    /// @return The paired Bob id, or 0.
    function getBobTokenID(uint256 aliceId) external view returns (uint256);

    /// @notice The Alice id paired with `bobId`, or 0 when none (predecessor ABI: 0 is ambiguous, see {aliceIdOf}).
    /// @param bobId The Bob id asked about.
    /// @return The paired Alice id, or 0.
    function getAliceTokenID(uint256 bobId) external view returns (uint256);

    /// @notice Whether `aliceId` is paired, and with which Bob id.
    /// @param aliceId The Alice id asked about.
    /// @return paired Whether it is paired.
    /// @return bobId The paired Bob id (0 when not paired).
    function bobIdOf(uint256 aliceId) external view returns (bool paired, uint256 bobId);

    /// @notice Whether `bobId` is paired, and with which Alice id.
    /// @param bobId The Bob id asked about.
    /// @return paired Whether it is paired.
    /// @return aliceId The paired Alice id (0 when not paired).
    function aliceIdOf(uint256 bobId) external view returns (bool paired, uint256 aliceId);

    // ---------------------------------------------------------------- conversion

    /// @notice Converts Alice `aliceId` of the caller to its Bob token through an approval (predecessor ABI).
    /// One-transaction alternative: `alice.safeTransferFrom(caller, converter, aliceId)`.
    /// @param aliceId The Alice token to give (approved to the converter).
    function convertFromAliceToBob(uint256 aliceId) external;

    /// @notice Converts Bob `bobId` of the caller to its Alice token through an approval (predecessor ABI).
    /// @param bobId The Bob token to give (approved to the converter).
    function convertFromBobToAlice(uint256 bobId) external;

    // ---------------------------------------------------------------- stock

    /// @notice Pulls `ids` of `token` (Alice or Bob) from the caller into stock (operators; needs approval).
    /// @param token Alice or Bob.
    /// @param ids The tokens to pull.
    function stock(IERC721 token, uint256[] calldata ids) external;

    /// @notice Sends stock `ids` of `token` (Alice or Bob) that belong to no registered pair to `to` (operators).
    /// @param token Alice or Bob.
    /// @param ids The tokens to send.
    /// @param to Their recipient.
    function withdrawStock(IERC721 token, uint256[] calldata ids, address to) external;

    /// @notice Sends a token held by the converter that is not stock of a registered pair to `to` (admin only):
    /// tokens sent by plain `transferFrom`, of any ERC-721 contract.
    /// @param token The token contract.
    /// @param id The token to send.
    /// @param to Its recipient.
    function recoverToken(IERC721 token, uint256 id, address to) external;
}
