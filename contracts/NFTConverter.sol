// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IERC721Receiver} from "@openzeppelin/contracts/token/ERC721/IERC721Receiver.sol";
import {AccessControlDefaultAdminRules} from "@openzeppelin/contracts/access/extensions/AccessControlDefaultAdminRules.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {INFTConverter} from "./interfaces/INFTConverter.sol";

/// @title NFTConverter
/// @notice Exchanges Alice tokens for their paired Bob tokens (and back), from the converter's stock.
/// @dev Successor of MCH+'s ERC721Converter: Alice and Bob are immutable, pairs may use id 0, every change emits
/// an event, and a conversion is one transaction (`safeTransferFrom` into the converter) with no approval.
/// Pairs are stored as `id + 1` so that 0 means "not paired" without a second slot per pair, which is what keeps
/// registration near the two-fresh-slots floor; the price is that `type(uint256).max` cannot be paired.
contract NFTConverter is INFTConverter, AccessControlDefaultAdminRules, ReentrancyGuardTransient {
    /// @inheritdoc INFTConverter
    bytes32 public constant OPERATOR_ROLE = keccak256("OPERATOR_ROLE");

    /// @notice Delay before a new admin can accept the role (two-step transfer); the admin can change it.
    uint48 public constant INITIAL_ADMIN_DELAY = 1 days;

    // Named like functions, not SNAKE_CASE: their getters `alice()` and `bob()` are part of the interface.
    /// @inheritdoc INFTConverter
    IERC721 public immutable alice; // solhint-disable-line immutable-vars-naming

    /// @inheritdoc INFTConverter
    IERC721 public immutable bob; // solhint-disable-line immutable-vars-naming

    // Pause and the reverse switch share one slot (packed after the admin rules' fields): a conversion pays
    // one cold read for both.
    uint8 private constant _PAUSED = 1;
    uint8 private constant _REVERSE_OFF = 2;
    uint8 private _flags;

    mapping(uint256 aliceId => uint256 bobIdPlusOne) private _bobOf;
    mapping(uint256 bobId => uint256 aliceIdPlusOne) private _aliceOf;

    /// @notice Deploys a converter between `alice_` and `bob_`, with no pairs, unpaused and reverse conversion on.
    /// @param alice_ The token users convert from.
    /// @param bob_ The token users convert to.
    /// @param admin Holder of the admin role (grants operators, switches reverse conversion, recovers tokens).
    constructor(IERC721 alice_, IERC721 bob_, address admin) AccessControlDefaultAdminRules(INITIAL_ADMIN_DELAY, admin) {
        if (address(alice_) == address(0) || address(bob_) == address(0) || alice_ == bob_) {
            revert InvalidTokens(address(alice_), address(bob_));
        }
        alice = alice_;
        bob = bob_;
    }

    // ------------------------------------------------------------------ configuration

    /// @inheritdoc INFTConverter
    function aliceContract() external view returns (address) {
        return address(alice);
    }

    /// @inheritdoc INFTConverter
    function bobContract() external view returns (address) {
        return address(bob);
    }

    /// @inheritdoc INFTConverter
    function reverseConversionEnabled() external view returns (bool) {
        return _flags & _REVERSE_OFF == 0;
    }

    /// @inheritdoc INFTConverter
    function setReverseConversion(bool enabled) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _flags = enabled ? _flags & ~_REVERSE_OFF : _flags | _REVERSE_OFF;
        emit ReverseConversionSet(enabled);
    }

    /// @inheritdoc INFTConverter
    function paused() external view returns (bool) {
        return _flags & _PAUSED != 0;
    }

    /// @inheritdoc INFTConverter
    function pause() external onlyRole(OPERATOR_ROLE) {
        if (_flags & _PAUSED != 0) revert EnforcedPause();
        _flags |= _PAUSED;
        emit Paused(msg.sender);
    }

    /// @inheritdoc INFTConverter
    function unpause() external onlyRole(OPERATOR_ROLE) {
        if (_flags & _PAUSED == 0) revert ExpectedPause();
        _flags &= ~_PAUSED;
        emit Unpaused(msg.sender);
    }

    // ------------------------------------------------------------------ operators (predecessor ABI)

    /// @inheritdoc INFTConverter
    function isOperator(address account) external view returns (bool) {
        return hasRole(OPERATOR_ROLE, account);
    }

    /// @inheritdoc INFTConverter
    function addOperator(address account) external onlyRole(getRoleAdmin(OPERATOR_ROLE)) {
        if (_grantRole(OPERATOR_ROLE, account)) emit OperatorAdded(account);
    }

    /// @inheritdoc INFTConverter
    function removeOperator(address account) external onlyRole(getRoleAdmin(OPERATOR_ROLE)) {
        if (_revokeRole(OPERATOR_ROLE, account)) emit OperatorRemoved(account);
    }

    // ------------------------------------------------------------------ pairs

    /// @inheritdoc INFTConverter
    function registerPairs(uint256[] calldata aliceIds, uint256[] calldata bobIds) external onlyRole(OPERATOR_ROLE) {
        _registerPairs(aliceIds, bobIds);
    }

    /// @inheritdoc INFTConverter
    function draftAliceTokens(uint256[] calldata aliceIds, uint256[] calldata bobIds) external onlyRole(OPERATOR_ROLE) {
        _registerPairs(aliceIds, bobIds);
    }

    /// @inheritdoc INFTConverter
    function draftBobTokens(uint256[] calldata bobIds, uint256[] calldata aliceIds) external onlyRole(OPERATOR_ROLE) {
        _registerPairs(aliceIds, bobIds);
    }

    /// @inheritdoc INFTConverter
    function draftAliceToken(uint256 aliceId, uint256 bobId) external onlyRole(OPERATOR_ROLE) {
        _registerPair(aliceId, bobId);
    }

    /// @inheritdoc INFTConverter
    function draftBobToken(uint256 bobId, uint256 aliceId) external onlyRole(OPERATOR_ROLE) {
        _registerPair(aliceId, bobId);
    }

    /// @inheritdoc INFTConverter
    function unregisterPairs(uint256[] calldata aliceIds) external onlyRole(OPERATOR_ROLE) {
        if (aliceIds.length == 0) revert EmptyBatch();
        for (uint256 i; i < aliceIds.length; ++i) {
            uint256 aliceId = aliceIds[i];
            uint256 stored = _bobOf[aliceId];
            if (stored == 0) revert AliceNotPaired(aliceId);
            uint256 bobId;
            unchecked {
                bobId = stored - 1;
            }
            // The converter holding the Alice token means a user converted it: they keep the right to convert back.
            if (_holds(alice, aliceId)) revert PairConverted(aliceId, bobId);
            delete _bobOf[aliceId];
            delete _aliceOf[bobId];
            emit PairUnregistered(aliceId, bobId);
        }
    }

    /// @inheritdoc INFTConverter
    function getBobTokenID(uint256 aliceId) external view returns (uint256) {
        (, uint256 bobId) = bobIdOf(aliceId);
        return bobId;
    }

    /// @inheritdoc INFTConverter
    function getAliceTokenID(uint256 bobId) external view returns (uint256) {
        (, uint256 aliceId) = aliceIdOf(bobId);
        return aliceId;
    }

    /// @inheritdoc INFTConverter
    function bobIdOf(uint256 aliceId) public view returns (bool paired, uint256 bobId) {
        uint256 stored = _bobOf[aliceId];
        unchecked {
            return stored == 0 ? (false, 0) : (true, stored - 1);
        }
    }

    /// @inheritdoc INFTConverter
    function aliceIdOf(uint256 bobId) public view returns (bool paired, uint256 aliceId) {
        uint256 stored = _aliceOf[bobId];
        unchecked {
            return stored == 0 ? (false, 0) : (true, stored - 1);
        }
    }

    // ------------------------------------------------------------------ conversion

    /// @notice Converts a token sent with `safeTransferFrom` and empty `data`, or takes it into stock when `data` is
    /// non-empty and the sender of the transfer is an operator.
    /// @dev Only Alice and Bob may call it. The counterpart goes to `from`, the token's previous owner.
    /// @param operator The account that called `safeTransferFrom` (checked for the operator role on stock deposits).
    /// @param from The previous owner of the token, who receives the counterpart.
    /// @param tokenId The id received.
    /// @param data Empty to convert; anything else to deposit stock.
    /// @return The ERC-721 receiver selector.
    function onERC721Received(
        address operator,
        address from,
        uint256 tokenId,
        bytes calldata data
    ) external nonReentrant returns (bytes4) {
        bool fromAlice = msg.sender == address(alice);
        if (!fromAlice && msg.sender != address(bob)) revert UnsupportedToken(msg.sender);
        if (data.length != 0) {
            if (!hasRole(OPERATOR_ROLE, operator)) revert NotOperator(operator);
            return IERC721Receiver.onERC721Received.selector;
        }
        uint8 flags = _flags;
        if (flags & _PAUSED != 0) revert EnforcedPause();
        if (fromAlice) {
            uint256 bobId = _pairedBob(tokenId);
            _send(bob, from, bobId);
            emit ConvertedAliceToBob(from, tokenId, bobId);
        } else {
            if (flags & _REVERSE_OFF != 0) revert ReverseConversionDisabled();
            uint256 aliceId = _pairedAlice(tokenId);
            _send(alice, from, aliceId);
            emit ConvertedBobToAlice(from, tokenId, aliceId);
        }
        return IERC721Receiver.onERC721Received.selector;
    }

    /// @inheritdoc INFTConverter
    /// @dev Pulls with `transferFrom`: `safeTransferFrom` would call back into {onERC721Received} and convert twice.
    function convertFromAliceToBob(uint256 aliceId) external nonReentrant {
        if (_flags & _PAUSED != 0) revert EnforcedPause();
        uint256 bobId = _pairedBob(aliceId);
        alice.transferFrom(msg.sender, address(this), aliceId);
        _send(bob, msg.sender, bobId);
        emit ConvertedAliceToBob(msg.sender, aliceId, bobId);
    }

    /// @inheritdoc INFTConverter
    function convertFromBobToAlice(uint256 bobId) external nonReentrant {
        uint8 flags = _flags;
        if (flags & _PAUSED != 0) revert EnforcedPause();
        if (flags & _REVERSE_OFF != 0) revert ReverseConversionDisabled();
        uint256 aliceId = _pairedAlice(bobId);
        bob.transferFrom(msg.sender, address(this), bobId);
        _send(alice, msg.sender, aliceId);
        emit ConvertedBobToAlice(msg.sender, bobId, aliceId);
    }

    // ------------------------------------------------------------------ stock

    /// @inheritdoc INFTConverter
    function stock(IERC721 token, uint256[] calldata ids) external onlyRole(OPERATOR_ROLE) {
        _requireAliceOrBob(token);
        for (uint256 i; i < ids.length; ++i) {
            token.transferFrom(msg.sender, address(this), ids[i]);
        }
    }

    /// @inheritdoc INFTConverter
    function withdrawStock(IERC721 token, uint256[] calldata ids, address to) external onlyRole(OPERATOR_ROLE) nonReentrant {
        _requireAliceOrBob(token);
        for (uint256 i; i < ids.length; ++i) {
            uint256 id = ids[i];
            _requireUnpaired(token, id);
            token.safeTransferFrom(address(this), to, id);
            emit StockWithdrawn(address(token), id, to);
        }
    }

    /// @inheritdoc INFTConverter
    function recoverToken(IERC721 token, uint256 id, address to) external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant {
        if (token == alice || token == bob) _requireUnpaired(token, id);
        token.safeTransferFrom(address(this), to, id);
        emit TokenRecovered(address(token), id, to);
    }

    // ------------------------------------------------------------------ ERC-165

    /// @notice ERC-165: access control, the admin rules and the ERC-721 receiver.
    /// @param interfaceId The interface identifier.
    /// @return Whether the interface is supported.
    function supportsInterface(bytes4 interfaceId) public view override returns (bool) {
        return interfaceId == type(IERC721Receiver).interfaceId || super.supportsInterface(interfaceId);
    }

    // ------------------------------------------------------------------ internals

    function _registerPairs(uint256[] calldata aliceIds, uint256[] calldata bobIds) private {
        uint256 count = aliceIds.length;
        if (count == 0) revert EmptyBatch();
        if (count != bobIds.length) revert LengthMismatch(count, bobIds.length);
        for (uint256 i; i < count; ) {
            _registerPair(aliceIds[i], bobIds[i]);
            unchecked {
                ++i;
            }
        }
    }

    function _registerPair(uint256 aliceId, uint256 bobId) private {
        if (aliceId == type(uint256).max) revert UnsupportedTokenId(aliceId);
        if (bobId == type(uint256).max) revert UnsupportedTokenId(bobId);
        // Reading before writing costs nothing extra: the cold access is paid once, by whichever comes first.
        if (_bobOf[aliceId] != 0) revert AliceAlreadyPaired(aliceId);
        if (_aliceOf[bobId] != 0) revert BobAlreadyPaired(bobId);
        unchecked {
            _bobOf[aliceId] = bobId + 1;
            _aliceOf[bobId] = aliceId + 1;
        }
        emit PairRegistered(aliceId, bobId);
    }

    function _pairedBob(uint256 aliceId) private view returns (uint256) {
        uint256 stored = _bobOf[aliceId];
        if (stored == 0) revert AliceNotPaired(aliceId);
        unchecked {
            return stored - 1;
        }
    }

    function _pairedAlice(uint256 bobId) private view returns (uint256) {
        uint256 stored = _aliceOf[bobId];
        if (stored == 0) revert BobNotPaired(bobId);
        unchecked {
            return stored - 1;
        }
    }

    /// @dev Sends a token from stock. The success path costs one call; only a failure asks who holds the token, so
    /// that "not in stock" is told apart from a recipient that refuses the token (whose reason is passed on).
    function _send(IERC721 token, address to, uint256 id) private {
        // Success needs nothing more; the catch tells the failures apart.
        // solhint-disable-next-line no-empty-blocks
        try token.safeTransferFrom(address(this), to, id) {} catch (bytes memory reason) {
            if (!_holds(token, id)) revert OutOfStock(address(token), id);
            // Re-raises the recipient's revert data unchanged, which Solidity cannot do without assembly.
            // solhint-disable-next-line no-inline-assembly
            assembly ("memory-safe") {
                revert(add(reason, 32), mload(reason))
            }
        }
    }

    function _holds(IERC721 token, uint256 id) private view returns (bool) {
        try token.ownerOf(id) returns (address owner) {
            return owner == address(this);
        } catch {
            return false;
        }
    }

    function _requireAliceOrBob(IERC721 token) private view {
        if (token != alice && token != bob) revert UnsupportedToken(address(token));
    }

    function _requireUnpaired(IERC721 token, uint256 id) private view {
        bool paired = token == alice ? _bobOf[id] != 0 : _aliceOf[id] != 0;
        if (paired) revert TokenOfRegisteredPair(address(token), id);
    }
}
